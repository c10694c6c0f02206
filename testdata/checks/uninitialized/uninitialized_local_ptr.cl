// A local buffer passed as a kernel argument; the middle work-item skips its write, then
// every work-item copies its own element to global memory.
kernel void uninitialized_local_ptr(local float* scratch, global float* out) {
  size_t i = get_local_id(0);
  if (i != get_local_size(0) / 2) scratch[i] = (float)i * 0.5f;
  out[get_global_id(0)] = scratch[i];
}
