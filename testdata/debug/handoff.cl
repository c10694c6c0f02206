// Work-group 0 spins on a flag that work-group 1 sets after writing data[0]: OpenCL
// promises no progress between work-groups, so this is a deadlock unless both are
// resident at once (--forward-progress occupancy:2; spvsim debug's tests). One
// work-item per work-group does the work.
__kernel void handoff(__global volatile int* flag, __global int* data) {
  if (get_local_id(0) != 0) return;
  if (get_group_id(0) == 0) {
    while (flag[0] == 0) {
    }
    data[1] = data[0] + 1;
  } else {
    data[0] = 41;
    flag[0] = 1;
  }
}
