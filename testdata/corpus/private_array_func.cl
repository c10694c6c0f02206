// Functions taking private arrays: a median of 5 (sorting network on the array) and a
// function returning two results through private pointers.
__attribute__((noinline)) int median5(int a[5]) {
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4 - i; ++j)
      if (a[j] > a[j + 1]) {
        int t = a[j];
        a[j] = a[j + 1];
        a[j + 1] = t;
      }
  return a[2];
}

__attribute__((noinline)) void minmax(const int *a, int n, int *lo, int *hi) {
  *lo = a[0];
  *hi = a[0];
  for (int k = 1; k < n; ++k) {
    *lo = min(*lo, a[k]);
    *hi = max(*hi, a[k]);
  }
}

kernel void private_array_func(global const int *in, global int *med, global int2 *range,
                               int n) {
  int i = get_global_id(0);
  int w[5];
  for (int k = 0; k < 5; ++k)
    w[k] = in[clamp(i + k - 2, 0, n - 1)];
  int lo, hi;
  minmax(w, 5, &lo, &hi);
  med[i] = median5(w);
  range[i] = (int2)(lo, hi);
}
