// Everyone increments atomically; then work-item 0 overwrites the counter plainly,
// with no synchronisation between.
kernel void atomic_race_after(global int* count) {
  atomic_inc(count);
  if (get_local_id(0) == 0) *count = 0;
}
