// Per-work-group min and max through local atomics, then global atomic_min/max on int and
// uint.
kernel void atomic_minmax(global const int *in, global int *group_min, global int *group_max,
                          global int *gmin, global uint *gmax_u) {
  local int lmin, lmax;
  size_t i = get_global_id(0);
  if (get_local_id(0) == 0) {
    lmin = INT_MAX;
    lmax = INT_MIN;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = in[i];
  atomic_min(&lmin, v);
  atomic_max(&lmax, v);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    group_min[get_group_id(0)] = lmin;
    group_max[get_group_id(0)] = lmax;
    atomic_min(gmin, lmin);
    atomic_max(gmax_u, (uint)lmax ^ 0x80000000u);
  }
}
