// Quotient and remainder by a run-time divisor (LLVM pairs them and emits `freeze`).
kernel void divrem_u32(global const uint *in, global uint *q, global uint *r, uint k) {
  size_t i = get_global_id(0);
  uint x = in[i];
  q[i] = x / k;
  r[i] = x % k;
}
