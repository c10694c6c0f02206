// Values exchanged through global memory, but the barrier names local memory only.
kernel void local_only_fence(global int* scratch, global int* out) {
  size_t l = get_local_id(0);
  scratch[l] = (int)l + 10;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = scratch[(l + 1) % 4];
}
