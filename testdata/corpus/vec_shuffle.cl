// shuffle and shuffle2 built-ins (OpenCL C 6.15.17) with constant and computed masks.
kernel void vec_shuffle(global const int8 *in, global int2 *picked, global int4 *mixed,
                        global uchar16 *bytes) {
  size_t i = get_global_id(0);
  int8 v = in[i];
  int4 a = v.lo, b = v.hi;
  picked[i] = shuffle(a, (uint2)(3, 1));
  mixed[i] = shuffle2(a, b, (uint4)(7, 0, 5, (uint)i & 7));
  uchar16 c = as_uchar16(v.s0123);
  bytes[i] = shuffle(c, (uchar16)(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0) ^
                        (uchar16)((uchar)i & 15));
}
