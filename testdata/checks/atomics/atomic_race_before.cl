// Work-item 0 initialises the counter plainly; then everyone decrements it.
kernel void atomic_race_before(global int* count) {
  if (get_global_id(0) == 0) *count = 0;
  atomic_dec(count);
}
