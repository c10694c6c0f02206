// sub_group_any/all and sub_group_non_uniform_all_equal in uniform branches.
kernel void sg_vote(global const int *in, global int *out, int threshold) {
  size_t i = get_global_id(0);
  int v = in[i];
  int r;
  if (get_group_id(0) & 1)
    r = sub_group_any(v > threshold) + 2 * sub_group_all(v > -threshold);
  else
    r = 4 * sub_group_any(v < -threshold) + 8 * sub_group_all(v != 0);
  r += 16 * sub_group_non_uniform_all_equal(v / 1000);
  out[i] = r;
}
