// Work-efficient exclusive prefix sum (Blelloch) of 2 elements per work-item; writes each
// work-group's total too.
kernel void scan_blelloch(global const int *in, global int *out, global int *totals,
                          local int *t) {
  int lid = get_local_id(0);
  int n = 2 * get_local_size(0);
  int base = get_group_id(0) * n;
  t[2 * lid] = in[base + 2 * lid];
  t[2 * lid + 1] = in[base + 2 * lid + 1];
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = offset * (2 * lid + 1) - 1;
      int bi = offset * (2 * lid + 2) - 1;
      t[bi] += t[ai];
    }
    offset <<= 1;
  }
  if (lid == 0) {
    totals[get_group_id(0)] = t[n - 1];
    t[n - 1] = 0;
  }
  for (int d = 1; d < n; d <<= 1) {
    offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = offset * (2 * lid + 1) - 1;
      int bi = offset * (2 * lid + 2) - 1;
      int x = t[ai];
      t[ai] = t[bi];
      t[bi] += x;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + 2 * lid] = t[2 * lid];
  out[base + 2 * lid + 1] = t[2 * lid + 1];
}
