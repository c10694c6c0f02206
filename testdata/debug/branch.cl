// spvsim debug tests and the README walk-through: a branch that splits the sub-group
// (even lanes call twice(), odd lanes add 100), then the lanes reconverge.
__attribute__((noinline)) uint twice(uint v) {
  uint t = v * 2u;
  return t;
}

__kernel void branchy(__global uint *out, __global const uint4 *vin) {
  uint i = get_global_id(0);
  uint x = i + 1u;
  if (i % 2u == 0u) {
    x = twice(x);
  } else {
    x = x + 100u;
  }
  uint4 v = vin[i];
  out[i] = x + v.y;
}
