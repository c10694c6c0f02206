// A tile is copied into local memory and waited for; a barrier, then every work-item
// reads its neighbour's element.
kernel void wait_before_barrier(global const int* in, global int* out, local int* tile) {
  size_t l = get_local_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * n, n, 0);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[(l + 1) % n];
}
