// Vector types and math built-ins: float4, int8, vload4/vstore4, sqrt, exp, mad, clamp, dot.
__kernel void vectors(__global const float *in, __global float4 *out4, __global float *outv,
                      __global float *outs, __global int8 *outi, float4 scale, int8 bias) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, in);
  out4[i] = clamp(mad(v, scale, (float4)(1.0f, -2.0f, 0.5f, 0.0f)), -4.0f, 40.0f);
  vstore4(sqrt(v) + exp(v * -0.125f), i, outv);
  outs[i] = dot(v, scale) + sqrt(v.w);
  int8 t = (int8)((int)i) * bias - (int8)(0, 1, 2, 3, 4, 5, 6, 7);
  outi[i] = clamp(t, -20, 100);
}
