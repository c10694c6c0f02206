// Weighted triangular accumulation with a trip count that varies per work-item.
kernel void nested_triangle(global const int *a, global int *out, int n) {
  int i = get_global_id(0);
  int s = 0;
  for (int r = 0; r <= i % n; ++r)
    for (int c = 0; c <= r; ++c)
      s += a[c] * (r - c + 1);
  out[i] = s;
}
