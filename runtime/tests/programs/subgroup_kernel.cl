// The kernel of subgroup_host: per sub-group, the sum of its values
// (sub_group_reduce_add) and the values rotated by `delta` lanes within the sub-group
// (intel_sub_group_shuffle), over any 1-, 2- or 3-D NDRange.
kernel void reduce_shuffle(global const int* in, global int* sums, global int* rotated,
                           uint delta) {
  size_t i = get_global_linear_id();
  int v = in[i];
  sums[i] = sub_group_reduce_add(v);
  uint n = get_sub_group_size();
  rotated[i] = intel_sub_group_shuffle(v, (get_sub_group_local_id() + delta) % n);
}
