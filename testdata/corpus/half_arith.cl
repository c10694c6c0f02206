// Arithmetic on half (cl_khr_fp16): +, -, * are correctly rounded to half.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void half_arith(global const half *a, global const half *b, global half *sum,
                       global half *prod, global half4 *v4, global float *wide,
                       global uchar *cmp) {
  size_t i = get_global_id(0);
  half x = a[i], y = b[i];
  sum[i] = x + y;
  half p = x * y;
  prod[i] = p;
  half4 v = (half4)(x, y, x - y, -x);
  half4 t = fabs(v);
  v4[i] = fmax(v, (half4)(0.0h)) - t;
  wide[i] = (float)x * (float)y;
  cmp[i] = (x < y) | ((x == y) << 1) | ((p > (half)1.0h) << 2);
}
