// Sum of each work-group's items by a tree in local memory with a barrier per level
// (OpenCL 1.2: work-group size a power of two).
__kernel void lreduce(__global const int *in, __global int *sums, __local int *scratch) {
  int lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    sums[get_group_id(0)] = scratch[0];
}
