// Numerical Recipes' linear congruential generator, stepped per work-item; counts how often
// the top bit was set.
kernel void lcg(global const uint *seed, global uint *state, global uint *high, uint steps) {
  uint i = get_global_id(0);
  uint x = seed[i];
  uint h = 0;
  for (uint k = 0; k < steps; ++k) {
    x = x * 1664525u + 1013904223u;
    h += x >> 31;
  }
  state[i] = x;
  high[i] = h;
}
