// A tile is copied from global to local memory; work-items read it before waiting.
kernel void async_copy_local_race(global const int* in, global int* out, local int* tile) {
  size_t l = get_local_id(0);
  event_t e = async_work_group_copy(tile, in, 4, 0);
  int v = tile[(l + 1) % 4];
  wait_group_events(1, &e);
  out[l] = v;
}
