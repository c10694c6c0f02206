// Work-items take an index from a private array of which only the first two elements are
// ever written, and load from global memory at it: work-items 2 and 3 use an index that
// has no value.
kernel void uninitialized_address(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int idx[4];
  idx[0] = 1;
  idx[1] = 0;
  out[i] = in[idx[i & 3]];
}
