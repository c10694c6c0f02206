// Barriers every work-item of a work-group reaches: in a loop whose trip count is the
// same for the whole work-group (it depends on the group id only), and in a branch
// taken by whole work-groups. Correct: nothing to report.
kernel void uniform_barriers(global int* data, local int* tile) {
  size_t l = get_local_id(0), n = get_local_size(0);
  int trips = (int)get_group_id(0) + 1;
  tile[l] = (int)l;
  for (int k = 0; k < trips; ++k) {
    barrier(CLK_LOCAL_MEM_FENCE);
    int next = tile[(l + 1) % n];
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[l] = next;
  }
  if (get_group_id(0) == 0) barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = tile[l];
}
