// As atomic_global_fence, with two work-groups: the barrier orders one group only.
kernel void atomic_global_fence_race(global int* count, global int* out) {
  atomic_fetch_add_explicit((global atomic_int*)count, 1, memory_order_relaxed,
                            memory_scope_device);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[get_group_id(0)] = *count;
}
