// Every work-item increments a counter; after a global barrier one reads it plainly.
kernel void atomic_global_fence(global int* count, global int* out) {
  atomic_inc(count);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[get_group_id(0)] = *count;
}
