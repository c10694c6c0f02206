// Integer hash loop: xorshift, multiply, rotate and popcount on 32-bit words.
__kernel void ihash(__global const uint *in, __global uint *out, int rounds) {
  int i = get_global_id(0);
  uint h = in[i] ^ 0x9e3779b9u, acc = 0;
  for (int r = 0; r < rounds; ++r) {
    h ^= h << 13;
    h ^= h >> 17;
    h ^= h << 5;
    h *= 0x85ebca6bu;
    h = rotate(h, (uint)(r & 31));
    acc += popcount(h) + (h >> 28);
  }
  out[i] = h ^ acc;
}
