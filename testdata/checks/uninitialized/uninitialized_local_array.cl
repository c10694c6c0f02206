// Work-items write only the even elements of a local array, then each sums the whole
// array (odd elements never written) into its result.
kernel void uninitialized_local_array(global int* out) {
  local int buf[8];
  size_t l = get_local_id(0);
  if ((l & 1) == 0) buf[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = 0;
  for (int k = 0; k < 8; ++k) sum += buf[k];
  out[get_global_id(0)] = sum;
}
