// Tree reduction in local memory with barriers: one sum per work-group
// (OpenCL 1.2, so Oclgrind runs it: uniform work-groups of a power-of-two size).
__kernel void reduce(__global const int *in, __global int *sums, __local int *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    sums[get_group_id(0)] = scratch[0];
}
