// spvsim debug tests: local memory (an argument and a __local array) and a work-group
// barrier that sub-groups wait at.
__kernel void rotate(__global int *out, __local int *scratch) {
  __local int tile[8];
  uint l = get_local_id(0);
  scratch[l] = (int)l * 10;
  tile[l % 8u] = -(int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[(l + 1u) % get_local_size(0)] + tile[0];
}
