// Ternaries on vectors: the condition's sign bit selects per component (OpenCL C 6.3.i).
kernel void ternary_vector(global const int4 *a, global const int4 *b,
                           global const float4 *x, global int4 *imax, global float4 *fsel,
                           global short8 *s8) {
  size_t i = get_global_id(0);
  int4 u = a[i], v = b[i];
  imax[i] = u > v ? u : v;
  float4 w = x[i];
  fsel[i] = w < 0.0f ? -w : w * 2.0f;
  short8 p = convert_short8((int8)(u, v));
  short8 q = (short8)(1, -2, 3, -4, 5, -6, 7, -8);
  s8[i] = select(p, q, p < q);
}
