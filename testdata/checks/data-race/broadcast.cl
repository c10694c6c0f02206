// Work-item 0 publishes a value through local memory; a local barrier orders its write
// before every work-item's read.
kernel void broadcast(global const int* in, global int* out, local int* slot) {
  if (get_local_id(0) == 0) *slot = in[0] * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = *slot;
}
