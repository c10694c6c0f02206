// Intel shuffles of char and short values (cl_intel_subgroups_char/short) in the arms of a
// uniform if.

// clang-15's opencl-c.h has no cl_intel_subgroups_char (a char argument would silently
// promote to the int overload): declared here as the extension specifies them.
char __attribute__((overloadable)) intel_sub_group_shuffle(char x, uint c);
char __attribute__((overloadable)) intel_sub_group_shuffle_xor(char x, uint c);

kernel __attribute__((intel_reqd_sub_group_size(16)))
void sg_intel_char_shuffle(global const char *c, global const short *s, global char *oc,
                           global short *os) {
  size_t i = get_global_id(0);
  char cv = c[i];
  short sv = s[i];
  uint lid = get_sub_group_local_id();
  if (get_group_id(0) & 1) {
    oc[i] = intel_sub_group_shuffle(cv, 15 - lid);
    os[i] = intel_sub_group_shuffle_xor(sv, 5);
  } else {
    oc[i] = intel_sub_group_shuffle_xor(cv, 9);
    os[i] = intel_sub_group_shuffle(sv, (lid * 3) & 15);
  }
}
