// popcount, clz, ctz, rotate and bitselect on several widths.
kernel void bit_tricks(global const uint *x, global const ulong *y, global uchar *u8,
                       global ushort *u16, global uint *u32o, global ulong *u64o) {
  size_t i = get_global_id(0);
  uint v = x[i];
  ulong w = y[i];
  uchar c = (uchar)v;
  ushort h = (ushort)(v >> 8);
  u8[4 * i] = popcount(c);
  u8[4 * i + 1] = clz(c);
  u8[4 * i + 2] = rotate(c, (uchar)(i & 7));
  u8[4 * i + 3] = ctz(c);
  u16[2 * i] = clz(h);
  u16[2 * i + 1] = rotate(h, (ushort)5);
  u32o[4 * i] = popcount(v);
  u32o[4 * i + 1] = clz(v);
  u32o[4 * i + 2] = rotate(v, (uint)i);
  u32o[4 * i + 3] = bitselect(v, ~v, 0x0f0f0f0fu);
  u64o[3 * i] = popcount(w);
  u64o[3 * i + 1] = clz(w) + ctz(w);
  u64o[3 * i + 2] = rotate(w, (ulong)(64 - i));
}
