// Non-uniform reductions in divergent arms: each arm combines only its own lanes, so the
// two calls must not be merged into one after the branch.
kernel void sg_non_uniform_divergent(global const int *in, global int *out, global int *scan) {
  size_t i = get_global_id(0);
  int v = in[i];
  int r, s;
  if (v & 1) {
    r = sub_group_non_uniform_reduce_add(v);
    s = sub_group_non_uniform_scan_inclusive_add(v);
  } else {
    r = sub_group_non_uniform_reduce_max(v);
    s = sub_group_non_uniform_scan_exclusive_add(v);
  }
  out[i] = r;
  scan[i] = s;
}
