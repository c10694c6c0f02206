// A variable assigned only on one path, then used as a branch condition by every
// work-item; only the taken branch writes to global memory.
kernel void uninitialized_local_variable(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int limit;
  if (in[i] > 100) limit = in[i];
  if ((int)i < limit) out[i] = 1;
  else out[i] = 2;
}
