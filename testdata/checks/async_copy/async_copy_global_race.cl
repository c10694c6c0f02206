// A tile is copied from local to global memory; before waiting, work-items overwrite the
// destination.
kernel void async_copy_global_race(global const int* in, global int* out, local int* tile) {
  size_t l = get_local_id(0);
  tile[l] = in[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out, tile, 4, 0);
  out[l] = -1;
  wait_group_events(1, &e);
}
