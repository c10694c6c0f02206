// vstore_half (round to nearest even and toward zero) and vload_half: core OpenCL C, no
// cl_khr_fp16 needed.
kernel void half_convert(global const float *in, global half *rte, global half *rtz,
                         global float *back) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, in);
  vstore_half4(v, i, rte);
  vstore_half4_rtz(v, i, rtz);
  float4 r = vload_half4(i, rte);
  vstore4(r * 0.5f, i, back);
}
