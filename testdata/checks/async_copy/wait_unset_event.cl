// The event list's second event_t was never set by a copy.
kernel void wait_unset_event(global const int* in, global int* out, local int* tile) {
  event_t e[2];
  e[0] = async_work_group_copy(tile, in, 4, 0);
  wait_group_events(2, e);
  out[get_global_id(0)] = tile[get_local_id(0)];
}
