// Work-items exchange values through a global buffer, ordered by a global barrier.
kernel void global_fence(global int* scratch, global int* out) {
  size_t l = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;
  scratch[base + l] = (int)(l * 3 + 1);
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[base + l] = scratch[base + (l + 1) % n];
}
