// Stream compaction's counter: each selected work-item takes a slot with atomic_inc.
// Which item gets which slot depends on the schedule; the set of slots taken, the count and
// the sum of the selected values do not.
kernel void atomic_counter_slots(global const int *in, global uint *counter, global uchar *taken,
                                 global int *sum, int threshold) {
  size_t i = get_global_id(0);
  int v = in[i];
  if (v > threshold) {
    uint slot = atomic_inc(counter);
    taken[slot] = 1;
    atomic_add(sum, v);
  }
}
