// Divergent control flow: nested loops whose trip counts depend on the lane, `continue`
// and `break` taken by some lanes only, `switch` statements and non-inlined helpers.
// `m` (pass 5) is a kernel argument so that clang keeps 32-bit `switch`es: on a value of
// known small range it narrows them to i3/i2, which llvm-spirv-15 cannot translate.
__attribute__((noinline)) uint mix(uint a, uint b) { return (a * 31u) ^ (b + 7u); }

__attribute__((noinline)) uint classify(uint v, uint m) {
  switch (v % m) {
  case 0: return v / 2u;
  case 1: return v * 3u + 1u;
  case 2: return mix(v, 2u);
  case 3: {
    uint s = 0;
    for (uint k = 0; k < (v & 3u); ++k)
      s = (s ^ v) + k * 7u; // not a closed form: clang would use i33 (invalid)
    return s;
  }
  default: return 17u;
  }
}

__kernel void diverge(__global const uint *in, __global uint *out, __global uint *trips,
                      uint m) {
  uint i = get_global_id(0);
  uint x = in[i];
  uint acc = 0, count = 0;
  for (uint a = 0; a < i % 7u; ++a) {
    if ((a + i) & 1u)
      continue;
    for (uint b = a; b < x % m + a; ++b) {
      acc += classify(x + a * 3u + b, m);
      ++count;
      if (acc > 1000u && (i & 2u))
        break;
    }
    if (i % 11u == 3u && a == 2u)
      break;
  }
  switch ((i + x) % m) {
  case 0: acc = mix(acc, i); break;
  case 1: acc += 5u; // fall through
  case 2: acc ^= 0x55u; break;
  default: break;
  }
  out[i] = acc;
  trips[i] = count;
}
