// Counts pairs (j, k), j < k < n, with a[j] + a[k] divisible by m starting at a row
// chosen per work-item; zero entries are skipped, and each row stops after `cap` pairs.
kernel void pair_count(global const short *a, global int *pairs, global int *last_j,
                       int n, int m, int cap) {
  int i = get_global_id(0);
  int count = 0, lastj = -1;
  for (int j = i % 5; j < n; ++j) {
    if (a[j] == 0)
      continue;
    int row = 0;
    for (int k = j + 1; k < n; ++k) {
      if ((a[j] + a[k]) % m != 0)
        continue;
      ++row;
      if (row == cap)
        break;
    }
    count += row;
    lastj = j;
    if (count > 3 * cap + i)
      break;
  }
  pairs[i] = count;
  last_j[i] = lastj;
}
