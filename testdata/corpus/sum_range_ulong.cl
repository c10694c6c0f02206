// Sum of an arithmetic series over [first, last) in 64-bit arithmetic (wraps modulo 2^64).
kernel void sum_range_ulong(global const ulong *first, global const ulong *last,
                            global ulong *out) {
  size_t i = get_global_id(0);
  ulong s = 0;
  for (ulong k = first[i]; k < last[i]; ++k)
    s += k;
  out[i] = s;
}
