// Every work-item writes its id to one local slot; work-item 0 copies it out after a
// barrier.
kernel void local_write_write_race(global int* out, local int* slot) {
  *slot = (int)get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[0] = *slot;
}
