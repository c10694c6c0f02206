// Each work-group writes its tile to out with a stride of 3: out[g * 12 + 3 i]. The
// second work-group's last element, out[21], lies past out's 20 elements.
kernel void async_copy_strided_partial(global int* out, local int* tile) {
  size_t l = get_local_id(0), g = get_group_id(0);
  tile[l] = (int)(10 * g + l);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_strided_copy(out + g * 12, tile, 4, 3, 0);
  wait_group_events(1, &e);
}
