// The work-group fills a local tile, then copies it to dst + 1: the copy's last element
// lands on dst[4], past the end of the 4-element buffer.
kernel void async_copy_out_of_bounds(global int* dst, local int* tile) {
  int l = (int)get_local_id(0);
  tile[l] = 100 + l;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(dst + 1, tile, get_local_size(0), 0);
  wait_group_events(1, &e);
}
