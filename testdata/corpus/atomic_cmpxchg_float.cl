// Float accumulation with an atomic_cmpxchg loop (the usual emulation of atomic float
// add); the inputs are small integers, so the sum does not depend on the order.
void atomic_add_float(volatile global float *p, float v) {
  volatile global uint *u = (volatile global uint *)p;
  uint old = *u, prev;
  do {
    prev = old;
    old = atomic_cmpxchg(u, prev, as_uint(as_float(prev) + v));
  } while (old != prev);
}

kernel void atomic_cmpxchg_float(global const float *in, global float *sums, uint nsums) {
  size_t i = get_global_id(0);
  atomic_add_float(&sums[i % nsums], in[i]);
}
