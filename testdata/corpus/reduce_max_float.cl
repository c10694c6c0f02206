// Work-group maximum of floats with a fixed-size local array declared in the kernel.
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void reduce_max_float(global const float *in, global float *out) {
  local float m[64];
  uint lid = get_local_id(0);
  m[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 32; s > 0; s >>= 1) {
    if (lid < s)
      m[lid] = fmax(m[lid], m[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = m[0];
}
