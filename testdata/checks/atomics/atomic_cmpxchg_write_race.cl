// data[0]: work-item 0 writes plainly, then everyone compare-exchanges.
// data[1]: work-items 1..3 compare-exchange, then work-item 0 writes plainly.
kernel void atomic_cmpxchg_write_race(global int* data) {
  size_t l = get_local_id(0);
  if (l == 0) data[0] = 7;
  atomic_cmpxchg(&data[0], 0, 50);
  if (l != 0) atomic_cmpxchg(&data[1], 0, (int)l);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) data[1] = 9;
}
