// OpenCL C 2.0 generic address space: one helper called with private, local and global
// pointers.
int weighted(const int *p, int n) {
  int s = 0;
  for (int k = 0; k < n; ++k)
    s += (k + 1) * p[k];
  return s;
}

kernel void generic_pointers(global const int *in, global int *out) {
  local int tile[64];
  int priv[4];
  size_t i = get_global_id(0);
  size_t lid = get_local_id(0);
  tile[lid] = in[i] * 2;
  for (int k = 0; k < 4; ++k)
    priv[k] = in[i] - k;
  barrier(CLK_LOCAL_MEM_FENCE);
  int a = weighted(priv, 4);
  int b = weighted(&tile[lid & ~3], 4);
  int c = weighted(in + (i & ~7), 8);
  out[i] = a + b * 3 + c * 5;
}
