// An optional buffer argument that may be NULL, and pointer comparisons with a null pointer.
kernel void null_pointer(global const int *in, global const int *bias, global int *out,
                         global int *flags) {
  size_t i = get_global_id(0);
  int v = in[i];
  if (bias != 0)
    v += bias[i % 4];
  global const int *p = (i & 1) ? in : (global const int *)0;
  flags[i] = (p == NULL) + 2 * (bias == NULL) + 4 * (p != 0 && p[i] == v);
  out[i] = v;
}
