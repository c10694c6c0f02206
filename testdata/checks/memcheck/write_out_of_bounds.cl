// Each work-item writes two elements ahead of its own: work-items 2 and 3 write
// out[4] and out[5], past the end of the 4-element buffer.
kernel void write_out_of_bounds(global int* out) {
  int i = (int)get_global_id(0);
  out[i + 2] = 10 * i;
}
