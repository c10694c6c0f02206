// `data` is read-only for the kernel: it doubles its elements in place and counts
// them in data[0] with an atomic, both writes to read-only memory.
kernel void write_read_only_memory(global int* data, global int* out) {
  size_t i = get_global_id(0);
  out[i] = data[i];
  data[i] = 2 * out[i];
  atomic_add(&data[0], 1);
}
