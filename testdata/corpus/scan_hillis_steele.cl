// Inclusive prefix sum within a work-group (Hillis-Steele, double-buffered local memory).
kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void scan_hillis_steele(global const uint *in, global uint *out) {
  local uint buf[2][128];
  uint lid = get_local_id(0);
  int cur = 0;
  buf[0][lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint off = 1; off < 128; off <<= 1) {
    uint v = buf[cur][lid];
    if (lid >= off)
      v += buf[cur][lid - off];
    buf[1 - cur][lid] = v;
    cur = 1 - cur;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = buf[cur][lid];
}
