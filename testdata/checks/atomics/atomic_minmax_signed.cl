// Signed atomic min and max over negative and positive values.
kernel void atomic_minmax_signed(global int* data) {
  int v = (int)get_global_id(0) - 2;
  atomic_min(&data[0], v);
  atomic_max(&data[1], v);
}
