// An int read through a pointer one byte past an int boundary.
kernel void unaligned(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  global const int* p = (global const int*)((global const char*)in + 1);
  out[i] = p[i];
}
