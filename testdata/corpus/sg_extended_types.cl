// cl_khr_subgroup_extended_types: reductions, scans and broadcasts of 8- and 16-bit types
// and vectors, the kind chosen by a kernel argument.
kernel void sg_extended_types(global const char *c, global const ushort *h,
                              global const short2 *s2, global char *oc, global ushort *oh,
                              global short2 *os, int mode) {
  size_t i = get_global_id(0);
  if (mode == 0) {
    oc[i] = sub_group_reduce_add(c[i]);
    oh[i] = sub_group_scan_inclusive_add(h[i]);
    os[i] = sub_group_broadcast(s2[i], 7);
  } else {
    oc[i] = sub_group_reduce_max(c[i]);
    oh[i] = sub_group_scan_exclusive_max(h[i]);
    os[i] = sub_group_broadcast(s2[i], 0);
  }
}
