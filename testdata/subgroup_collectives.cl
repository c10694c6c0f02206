// cl_khr_subgroups and the OpenCL 2.0 work-group functions: collectives that every
// work-item of the sub-group (work-group) reaches. Run, for example:
//   spvsim run testdata/subgroup_collectives.cl --kernel sub_group_collectives \
//     --global 20 --local 20 --sub-group-size 8 \
//     --arg 'buffer:int[20]=range(-5,3)' --arg 'buffer:int[80]=zero' --dump
// The work-group of 20 work-items has sub-groups of 8, 8 and 4 lanes.

// Each work-item writes four results of its sub-group at out[4 * id ...].
kernel void sub_group_collectives(global const int *in, global int *out) {
  size_t i = get_global_linear_id();
  int x = in[i];
  global int *o = out + 4 * i;
  o[0] = sub_group_scan_exclusive_add(x);  // sum of the lanes below this one
  o[1] = sub_group_reduce_max(x);          // the largest value of the sub-group
  o[2] = sub_group_broadcast(x, 1);        // lane 1's value (every sub-group here has one)
  o[3] = sub_group_any(x < 0) + 2 * sub_group_all(x > 0);
}

// The same at work-group scope in a 2-D work-group: lanes of all sub-groups combine.
kernel void work_group_collectives(global const int *in, global int *out) {
  size_t i = get_global_linear_id();
  int x = in[i];
  global int *o = out + 3 * i;
  o[0] = work_group_reduce_add(x);
  o[1] = work_group_scan_inclusive_min(x);  // in linear local id order
  o[2] = work_group_broadcast(x, 2, 1);     // the work-item at local id (2, 1)
}
