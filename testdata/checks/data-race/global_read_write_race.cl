// Each work-item shifts the buffer left by one: reads its right neighbour's element,
// which that neighbour overwrites.
kernel void global_read_write_race(global int* data) {
  size_t i = get_global_id(0);
  data[i] = data[i + 1];
}
