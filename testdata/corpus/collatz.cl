// Collatz trajectory length with a do-while loop (capped at `limit` steps) and the peak.
kernel void collatz(global const uint *start, global ushort *steps, global ulong *peak,
                    ushort limit) {
  size_t i = get_global_id(0);
  ulong x = start[i];
  ulong top = x;
  ushort n = 0;
  do {
    if (x <= 1)
      break;
    x = (x & 1) ? 3 * x + 1 : x >> 1;
    if (x > top)
      top = x;
  } while (++n < limit);
  steps[i] = n;
  peak[i] = top;
}
