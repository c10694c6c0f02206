// Everyone reads data[0]; after a barrier for local memory only, work-item 0 writes it.
kernel void intragroup_hidden_race(global int* data, global int* out) {
  size_t l = get_local_id(0);
  out[l] = data[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) data[0] = -1;
}
