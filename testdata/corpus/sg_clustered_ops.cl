// Clustered min/max/and/or/xor with sub-groups of 8, the operation picked by a kernel
// argument in a switch.
kernel __attribute__((intel_reqd_sub_group_size(8)))
void sg_clustered_ops(global const uint *in, global uint *out, int op) {
  size_t i = get_global_id(0);
  uint v = in[i];
  uint r;
  switch (op) {
    case 0: r = sub_group_clustered_reduce_min(v, 4); break;
    case 1: r = sub_group_clustered_reduce_max(v, 2); break;
    case 2: r = sub_group_clustered_reduce_and(v, 8); break;
    case 3: r = sub_group_clustered_reduce_or(v, 4); break;
    default: r = sub_group_clustered_reduce_xor(v, 2); break;
  }
  out[i] = r;
}
