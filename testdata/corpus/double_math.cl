// Double precision: +, -, *, /, sqrt and fma are correctly rounded (0 ulp).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void double_math(global const double *a, global const double *b, global double *out) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i];
  double s = x + y;
  double d = x - y;
  double p = x * y;
  out[6 * i] = s;
  out[6 * i + 1] = d;
  out[6 * i + 2] = p;
  out[6 * i + 3] = x / y;
  out[6 * i + 4] = sqrt(fabs(x));
  out[6 * i + 5] = fma(x, y, s);
}
