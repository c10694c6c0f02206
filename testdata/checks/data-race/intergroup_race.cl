// Two work-groups write the same four elements with different values.
kernel void intergroup_race(global int* out) {
  out[get_local_id(0)] = (int)get_global_id(0);
}
