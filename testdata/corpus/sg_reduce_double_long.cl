// Reductions of double and 64-bit integers in the two arms of a uniform if.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void sg_reduce_double_long(global const double *d, global const ulong *u,
                                  global double *od, global ulong *ou) {
  size_t i = get_global_id(0);
  double x = d[i];
  ulong y = u[i];
  if (get_group_id(0) & 1) {
    od[i] = sub_group_reduce_add(x);
    ou[i] = sub_group_reduce_min(y);
  } else {
    od[i] = sub_group_scan_inclusive_max(x);
    ou[i] = sub_group_scan_inclusive_add(y);
  }
}
