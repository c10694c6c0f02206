// A private array of which each work-item writes the first half only, summed whole into
// the result.
kernel void uninitialized_private_array(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int a[8];
  for (int k = 0; k < 4; ++k) a[k] = in[i] + k;
  int sum = 0;
  for (int k = 0; k < in[i] + 4; ++k) sum += a[k];
  out[i] = sum;
}
