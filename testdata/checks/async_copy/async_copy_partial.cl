// Each work-group copies 4 elements of `in` from g * 4 + 2 into its tile; the second
// work-group's copy runs past the end of `in` (8 elements): in[8] and in[9].
kernel void async_copy_partial(global const int* in, global int* out, local int* tile) {
  size_t l = get_local_id(0), g = get_group_id(0);
  tile[l] = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(tile, in + g * 4 + 2, 4, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[l];
}
