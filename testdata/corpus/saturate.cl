// Saturating arithmetic on every integer width.
kernel void saturate(global const char *a, global const char *b, global char *c8,
                     global const ushort *h, global const ushort *g, global ushort *u16,
                     global const int *x, global const int *y, global int *i32,
                     global const long *p, global const long *q, global long *i64) {
  size_t i = get_global_id(0);
  c8[2 * i] = add_sat(a[i], b[i]);
  c8[2 * i + 1] = sub_sat(a[i], b[i]);
  u16[2 * i] = add_sat(h[i], g[i]);
  u16[2 * i + 1] = sub_sat(h[i], g[i]);
  i32[3 * i] = add_sat(x[i], y[i]);
  i32[3 * i + 1] = sub_sat(x[i], y[i]);
  i32[3 * i + 2] = mad_sat(x[i], 3, y[i]);
  i64[2 * i] = add_sat(p[i], q[i]);
  i64[2 * i + 1] = sub_sat(p[i], q[i]);
}
