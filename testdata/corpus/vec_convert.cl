// Vector conversions (widening, saturating) and reinterpretation with as_type.
kernel void vec_convert(global const uchar4 *a, global const int4 *b, global const float4 *f,
                        global int4 *wide, global uchar4 *narrow, global uint4 *bits,
                        global float4 *fl) {
  size_t i = get_global_id(0);
  int4 w = convert_int4(a[i]);
  wide[i] = w * b[i];
  narrow[i] = convert_uchar4_sat(b[i]);
  bits[i] = as_uint4(f[i]) ^ (uint4)(0x80000000u, 0, 0x80000000u, 0);
  fl[i] = convert_float4(w) + as_float4(as_uint4(f[i]) & (uint4)(0x7fffffffu));
}
