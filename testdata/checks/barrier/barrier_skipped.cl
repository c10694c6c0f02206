// The first half of each work-group waits at a barrier that the second half skips.
kernel void barrier_skipped(global int* data) {
  size_t l = get_local_id(0);
  if (l < get_local_size(0) / 2) {
    data[get_global_id(0)] = 1;
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
  data[get_global_id(0)] += 1;
}
