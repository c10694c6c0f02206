// Count-down loop on a ushort counter with uchar arithmetic that wraps.
kernel void ushort_countdown(global const ushort *n, global uchar *acc, global uint *trips) {
  size_t i = get_global_id(0);
  uchar a = (uchar)i;
  uint t = 0;
  for (ushort c = n[i]; c != 0; --c) {
    a = a * 3 + (uchar)c;
    ++t;
  }
  acc[i] = a;
  trips[i] = t;
}
