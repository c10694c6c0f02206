// A sliding-window sum over a local tile of one work-group (local size 16). With a
// window wider than 1, the last work-items read past the 16 elements the work-group
// stored: `spvsim run --check-uninitialized` reports those reads as uninitialized-read.
__kernel void window_sum(__global const int *in, __global int *out, int width) {
  __local int tile[32];
  int l = get_local_id(0);
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = 0;
  for (int k = 0; k < width; ++k) sum += tile[l + k];
  out[get_global_id(0)] = sum;
}
