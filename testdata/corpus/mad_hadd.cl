// hadd/rhadd/abs_diff/mul_hi/mad_hi/mad24/mul24/upsample/clamp built-ins.
kernel void mad_hadd(global const int *x, global const int *y, global const uint *u,
                     global const uint *v, global int *si, global uint *ui, global long *l) {
  size_t i = get_global_id(0);
  int a = x[i], b = y[i];
  uint c = u[i], d = v[i];
  si[4 * i] = hadd(a, b);
  si[4 * i + 1] = rhadd(a, b);
  si[4 * i + 2] = mul_hi(a, b);
  si[4 * i + 3] = mad24(a >> 9, (b >> 9) & 63, 7);
  ui[4 * i] = abs_diff(a, b);
  ui[4 * i + 1] = mad_hi(c, d, 12345u);
  ui[4 * i + 2] = mul24(c & 0xffffff, d & 0xff);
  ui[4 * i + 3] = clamp(c, 1000u, 3000000000u);
  l[i] = upsample(a, d);
}
