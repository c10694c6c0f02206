// Range and flag tests with || and && chains on scalars.
kernel void logic_scalar(global const int *x, global const uint *flags, global uchar *out,
                         int lo, int hi) {
  size_t i = get_global_id(0);
  int v = x[i];
  uint f = flags[i];
  uchar r = 0;
  if (v < lo || v > hi || (f & 1) == 0)
    r |= 1;
  if ((v > 0 && (f & 2)) || (v < 0 && (f & 4)) || v == 0)
    r |= 2;
  if (f == 0 || (f & (f - 1)) == 0)   /* zero or a power of two */
    r |= 4;
  if (!(v & 1) && v % 3 == 0 && f > 3)
    r |= 8;
  out[i] = r;
}
