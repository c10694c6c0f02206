// A float4 whose y component is never assigned goes through fract(), which writes its
// integral part through the pointer (global memory) and returns the fractional part,
// stored to global memory too.
kernel void partially_uninitialized_fract(global float4* out) {
  float4 v;
  v.xzw = (float3)(1.25f, 2.5f, 3.75f);
  out[1] = fract(v, out);
}
