// Horizontal sums of integer vectors (SLP turns them into vector-reduce intrinsics).
kernel void vec_sum(global const int4 *a, global const uint8 *b, global const ulong2 *c,
                    global const short4 *d, global int *sa, global uint *sb, global ulong *sc,
                    global int *sd) {
  size_t i = get_global_id(0);
  int4 v = a[i];
  uint8 w = b[i];
  ulong2 x = c[i];
  short4 y = d[i];
  sa[i] = v.x + v.y + v.z + v.w;
  sb[i] = w.s0 + w.s1 + w.s2 + w.s3 + w.s4 + w.s5 + w.s6 + w.s7;
  sc[i] = x.x + x.y;
  sd[i] = y.x + y.y + y.z + y.w;
}
