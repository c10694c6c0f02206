// Work-item 0 reads the value plainly while the others try compare-exchanges that
// cannot succeed (the value is never 99): failed exchanges only read.
kernel void atomic_cmpxchg_false_race(global int* data, global int* out) {
  size_t l = get_local_id(0);
  out[l] = data[0];
  if (l != 0) atomic_cmpxchg(data, 99, (int)l);
}
