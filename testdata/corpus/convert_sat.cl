// Explicit conversions with saturation and rounding modes (OpenCL C 6.4.3).
kernel void convert_sat(global const float *f, global const int *n, global char *c,
                        global uchar *uc, global short *s, global int *r) {
  size_t i = get_global_id(0);
  float v = f[i];
  c[i] = convert_char_sat(n[i]);
  uc[i] = convert_uchar_sat_rte(v);
  s[i] = convert_short_sat((long)n[i] * 3);
  r[4 * i] = convert_int_rtz(v);
  r[4 * i + 1] = convert_int_rtp(v);
  r[4 * i + 2] = convert_int_rtn(v);
  r[4 * i + 3] = convert_int_sat_rte(v * 1e8f);
}
