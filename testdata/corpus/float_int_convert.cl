// Integer to floating conversions (round to nearest even) and back (toward zero).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void float_int_convert(global const int *n, global const uint *u, global const long *l,
                              global float *f, global double *d, global int *back) {
  size_t i = get_global_id(0);
  f[3 * i] = (float)n[i];
  f[3 * i + 1] = (float)u[i];
  f[3 * i + 2] = (float)l[i];
  d[i] = (double)l[i];
  back[i] = (int)((float)n[i] * 0.25f);
}
