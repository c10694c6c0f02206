// Sub-group 0 waits for a flag that sub-group 1 sets only after a barrier sub-group 0
// never reaches: a deadlock.
__kernel void stuck(__global volatile uint* flag) {
  if (get_sub_group_id() == 0) {
    while (flag[0] == 0) {
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_sub_group_id() == 1) flag[0] = 1;
}

// Every work-item writes out[0], none synchronises: a data race between sub-groups.
__kernel void racy(__global uint* out) { out[0] = get_local_id(0); }
