// cl_khr_subgroup_non_uniform_arithmetic, _vote and _ballot in divergent code: only the
// lanes whose value is odd enter the branch, and the operations see only those lanes.
//   spvsim run testdata/subgroup_non_uniform.cl --kernel odd_lanes --global 24 \
//     --local 24 --sub-group-size 8 --arg 'buffer:int[24]=range(3,5)' \
//     --arg 'buffer:int[144]=fill(-1)' --dump
kernel void odd_lanes(global const int *in, global int *out) {
  size_t i = get_global_linear_id();
  int x = in[i];
  global int *o = out + 6 * i;
  if (x & 1) {
    o[0] = sub_group_non_uniform_reduce_add(x);
    o[1] = sub_group_non_uniform_scan_exclusive_add(x);  // over the odd lanes below
    o[2] = sub_group_elect();                             // 1 in the lowest odd lane
    o[3] = sub_group_ballot_bit_count(sub_group_ballot(x > 20));
    o[4] = sub_group_broadcast_first(x);
    o[5] = sub_group_clustered_reduce_max(x, 4);  // clusters of lanes 0-3, 4-7, ...
  }
}
