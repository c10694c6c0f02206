// Kahan-compensated sum of a strided column of doubles (no reassociation allowed).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void double_kahan(global const double *x, global double *sum, global double *naive,
                         int rows, int cols) {
  int col = get_global_id(0);
  double s = 0.0, c = 0.0, n = 0.0;
  for (int r = 0; r < rows; ++r) {
    double v = x[r * cols + col];
    double y = v - c;
    double t = s + y;
    c = (t - s) - y;
    s = t;
    n += v;
  }
  sum[col] = s;
  naive[col] = n;
}
