// atomic_or/and/xor/sub/dec on global memory: results independent of the order.
kernel void atomic_bitops(global const uint *in, global uint *acc, global int *down) {
  size_t i = get_global_id(0);
  uint v = in[i];
  atomic_or(&acc[0], v & 0x0f0f0f0f);
  atomic_and(&acc[1], ~(1u << (v & 31)));
  atomic_xor(&acc[2], v);
  atomic_sub(&down[0], (int)(v & 0xffff));
  atomic_dec(&down[1]);
}
