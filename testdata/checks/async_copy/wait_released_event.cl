// The kernel waits for its copy's event twice.
kernel void wait_released_event(global const int* in, global int* out, local int* tile) {
  event_t e = async_work_group_copy(tile, in, 4, 0);
  wait_group_events(1, &e);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)];
}
