// Local atomics, then a local barrier, then a plain read of the local counter.
kernel void atomic_local_fence(global int* out, local int* count) {
  if (get_local_id(0) == 0) *count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(count, 2);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[get_group_id(0)] = *count;
}
