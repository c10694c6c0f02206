// vload3/vstore3 on packed int and ushort arrays, and ulong3 arithmetic.
kernel void vec3_load_store(global const int *p, global int *q, global const ushort *h,
                            global ushort *g, global ulong *w) {
  size_t i = get_global_id(0);
  int3 v = vload3(i, p);
  vstore3(v.zxy * 2 - (int3)(1, 2, 3), i, q);
  ushort3 s = vload3(i, h);
  vstore3(s + s.yzx, i, g);
  ulong3 l = convert_ulong3(v) * (ulong3)(0x100000001UL);
  vstore3(l, i, w);
}
