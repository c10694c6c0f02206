// `in` is read-only and `out` write-only for the kernel (the host created them so):
// copying in to out is fine; reading a neighbour's element of `out` back is not.
kernel void read_write_only_memory(global const int* in, global int* out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  out[i] = in[i];
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[i] = out[(i + 1) % n] + in[i];
}
