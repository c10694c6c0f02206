// Each work-group reverses its slice of `in` through local memory: every work-item
// writes its own tile element, the barrier orders those writes before the reads
// (OpenCL C 6.15.9 barrier), so the result is the same under every schedule.
kernel void reverse_in_group(global const int* in, global int* out, local int* tile) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[n - 1 - l];
}
