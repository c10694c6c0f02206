// Classic work-group tree reduction through local memory (power-of-two work-groups).
kernel void reduce_tree(global const int *in, global int *partial, local int *scratch) {
  uint lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}
