// Work-items read a neighbour's local slot with no barrier after the writes.
kernel void local_read_write_race(global const int* in, global int* out, local int* tile) {
  size_t l = get_local_id(0);
  tile[l] = in[l];
  out[l] = tile[(l + 3) % 4];
}
