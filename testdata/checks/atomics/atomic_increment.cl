// Every work-item increments one counter atomically; each also records the old value.
kernel void atomic_increment(global int* count, global int* old) {
  old[get_global_id(0)] = atomic_inc(count);
}
