// Only the first 4 work-items of each sub-group reach the sub-group barrier.
kernel void sub_group_barrier_divergent(global int* data) {
  if (get_sub_group_local_id() < 4) sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
  data[get_global_id(0)] = (int)get_sub_group_local_id();
}
