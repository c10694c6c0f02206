// Work-item 3 reads in[4] of a 4-element buffer: outside the buffer object, which the
// OpenCL C spec leaves undefined (6.15 / pointer arithmetic beyond the object).
kernel void read_out_of_bounds(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[i + 1];
}
