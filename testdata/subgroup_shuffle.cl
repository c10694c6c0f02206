// cl_khr_subgroup_shuffle, _shuffle_relative and _rotate: lanes read each other's
// registers without going through memory.
//   spvsim run testdata/subgroup_shuffle.cl --kernel shuffles --global 32 --local 16 \
//     --sub-group-size 8 --arg 'buffer:float[32]=range(1)' --arg 'buffer:float[128]=zero' --dump
kernel void shuffles(global const float *in, global float *out) {
  size_t i = get_global_linear_id();
  float x = in[i];
  uint lid = get_sub_group_local_id(), n = get_sub_group_size();
  global float *o = out + 4 * i;
  // Butterfly sum: after log2(n) exchanges every lane holds the sub-group's total.
  float s = x;
  for (uint m = n / 2; m > 0; m /= 2) s += sub_group_shuffle_xor(s, m);
  o[0] = s;
  o[1] = sub_group_shuffle(x, n - 1 - lid);                 // the sub-group reversed
  o[2] = sub_group_clustered_rotate(x, 3, 4);  // lane (lid + 3) mod 4 of its group of 4
  o[3] = sub_group_shuffle_up(x, lid == 0 ? 0 : 1) - x;    // previous lane minus this one
}
