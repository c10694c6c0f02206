// Base-10 digit sum and digit count of a uint; converts to a reversed number too.
kernel void digit_sum(global const uint *in, global uint *sum, global uchar *ndigits,
                      global ulong *reversed) {
  size_t i = get_global_id(0);
  uint x = in[i];
  uint s = 0;
  uchar n = 0;
  ulong rev = 0;
  do {
    uint d = x % 10;
    x /= 10;
    s += d;
    rev = rev * 10 + d;
    ++n;
  } while (x != 0);
  sum[i] = s;
  ndigits[i] = n;
  reversed[i] = rev;
}
