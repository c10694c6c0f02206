// Work-items branch on a local flag that no work-item ever sets.
kernel void branch_on_uninitialized_local(global int* out) {
  local int flag;
  size_t i = get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (flag) out[i] = 1;
  else out[i] = 2;
}
