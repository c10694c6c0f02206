// Each sub-group appends its id through an atomic counter, 4 times: `order` records
// the order in which the scheduler ran the sub-groups.
__kernel void order(__global uint* counter, __global uint* order) {
  for (int k = 0; k < 4; ++k) {
    uint slot = atomic_inc(counter);
    order[slot] = get_sub_group_id();
  }
}
