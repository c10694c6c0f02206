// Odd and even work-items wait at two different barrier instructions: each is reached by
// only half of the work-group.
kernel void different_barriers(global int* data) {
  size_t g = get_global_id(0);
  if (g % 2) {
    data[g] = 1;
    barrier(CLK_GLOBAL_MEM_FENCE);
  } else {
    barrier(CLK_GLOBAL_MEM_FENCE);
    data[g] = 2;
  }
}
