// A tile is copied into local memory; a barrier, then every work-item reads its
// neighbour's element, and only then waits for the copy.
kernel void barrier_before_wait(global const int* in, global int* out, local int* tile) {
  size_t l = get_local_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * n, n, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = tile[(l + 1) % n];
  wait_group_events(1, &e);
  out[get_global_id(0)] = v;
}
