// Work-item 0 swaps a new value in, then every work-item reads the location plainly.
kernel void atomic_cmpxchg_read_race(global int* data, global int* out) {
  size_t l = get_local_id(0);
  if (l == 0) atomic_cmpxchg(data, 0, 42);
  out[l] = data[0];
}
