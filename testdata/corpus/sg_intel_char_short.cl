// cl_intel_subgroups_char/short: broadcast of a short and shuffle of a char, with different
// constants in the two arms of a uniform if.

// clang-15's opencl-c.h has no cl_intel_subgroups_char (a char argument would silently
// promote to the int overload): declared here as the extension specifies it.
char __attribute__((overloadable)) intel_sub_group_shuffle(char x, uint c);
kernel __attribute__((intel_reqd_sub_group_size(16)))
void sg_intel_char_short(global const short *s, global const char *c, global short *os,
                         global char *oc) {
  size_t i = get_global_id(0);
  short sv = s[i];
  char cv = c[i];
  uint lid = get_sub_group_local_id();
  if (get_group_id(0) & 1) {
    os[i] = intel_sub_group_broadcast(sv, 2);
    oc[i] = intel_sub_group_shuffle(cv, (lid + 1) & 15);
  } else {
    os[i] = intel_sub_group_broadcast(sv, 13);
    oc[i] = intel_sub_group_shuffle(cv, (lid + 3) & 15);
  }
}
