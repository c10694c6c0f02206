// Work-item i increments counter i + 1: work-item 3 increments counters[4], one past
// the end of the 4-counter buffer.
kernel void atomic_out_of_bounds(volatile global int* counters) {
  int i = (int)get_global_id(0);
  atomic_inc(counters + i + 1);
}
