// Stages a work-group's inputs in local memory, then combines each element with its
// right neighbour inside the work-group (wrapping) and a per-lane coefficient.
__kernel void window(__global const int *in, __local int *tmp, __global const int *coef,
                     __global int *out, int k) {
  size_t gid = get_global_id(0);
  size_t lid = get_local_id(0);
  size_t n = get_local_size(0);
  tmp[lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = tmp[lid] + k * tmp[(lid + 1) % n] - coef[lid % 4];
}
