// Values exchanged through local memory, but the barrier names global memory only.
kernel void global_only_fence(global const int* in, global int* out, local int* tile) {
  size_t l = get_local_id(0);
  tile[l] = in[l];
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[l] = tile[(l + 1) % 4];
}
