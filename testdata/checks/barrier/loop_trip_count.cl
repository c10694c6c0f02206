// Work-item l passes the loop's barrier (l % 3) + 1 times: all of the work-group reach it
// once, only two thirds a second time.
kernel void loop_trip_count(global int* data, local int* tile) {
  size_t l = get_local_id(0);
  int trips = (int)(l % 3) + 1;
  for (int k = 0; k < trips; ++k) {
    tile[l] = k;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[get_global_id(0)] = tile[l];
}
