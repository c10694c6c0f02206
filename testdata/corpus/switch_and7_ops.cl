// A switch on x & 7 with computed cases and a default.
kernel void switch_and7_ops(global const uint *in, global uint *out) {
  size_t i = get_global_id(0);
  uint x = in[i];
  uint r;
  switch (x & 7) {
    case 0: r = x + 1; break;
    case 1: r = x * 3; break;
    case 2: r = x ^ 0x55; break;
    case 3: r = x >> 2; break;
    case 5: r = x - 9; break;
    case 6: r = ~x; break;
    default: r = 42; break;
  }
  out[i] = r;
}
