// Insertion sort of 8 values in a private array, indexed by loop variables.
kernel void private_sort(global const int *in, global int *out) {
  int i = get_global_id(0);
  int v[8];
  for (int k = 0; k < 8; ++k)
    v[k] = in[i * 8 + k];
  for (int k = 1; k < 8; ++k) {
    int x = v[k];
    int j = k - 1;
    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = x;
  }
  for (int k = 0; k < 8; ++k)
    out[i * 8 + k] = v[k];
}
