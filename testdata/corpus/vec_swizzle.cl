// Swizzles and .lo/.hi/.odd/.even.
kernel void vec_swizzle(global const int8 *in, global int8 *rev, global int4 *parts,
                        global int4 *mixed) {
  size_t i = get_global_id(0);
  int8 v = in[i];
  rev[i] = v.s76543210;
  int4 a = v.lo, b = v.hi;
  parts[2 * i] = a.wzyx + b;
  parts[2 * i + 1] = (int4)(v.odd.xy, v.even.zw);
  mixed[i] = (int4)(b.w, a.x, b.y, v.s3) - (int4)(v.s0123.yx, v.s4567.zw);
}
