// Within a work-group the barrier would order the write and the reads; between
// work-groups it does not.
kernel void intergroup_hidden_race(global int* data, global int* out) {
  if (get_global_id(0) == 0) data[0] = 5;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = data[0];
}
