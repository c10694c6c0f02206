// Reads one element past the end of `in`: the last work-item is out of bounds.
__kernel void shift_left(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  out[i] = in[i + 1];
}
