// 64-bit signed division and remainder, plus an unsigned pair by a kernel argument.
kernel void divrem_s64(global const long *a, global const long *b, global long *q,
                       global long *r, global ulong *uq, global ulong *ur, ulong m) {
  size_t i = get_global_id(0);
  long x = a[i], y = b[i];
  q[i] = x / y;
  r[i] = x % y;
  ulong u = (ulong)x;
  uq[i] = u / m;
  ur[i] = u % m;
}
