// Reductions and scans of longs, one kind per work-group (a uniform switch).
kernel void sg_reduce_modes(global const long *in, global long *out) {
  size_t i = get_global_id(0);
  long v = in[i];
  long r;
  switch (get_group_id(0) % 4) {
    case 0: r = sub_group_reduce_add(v); break;
    case 1: r = sub_group_scan_inclusive_max(v); break;
    case 2: r = sub_group_scan_exclusive_min(v); break;
    default: r = sub_group_reduce_max(v) - sub_group_reduce_min(v); break;
  }
  out[i] = r;
}
