// A uniform loop over the lanes of the sub-group, broadcasting each lane's value in turn
// (a sub-group matrix-vector product).
kernel void sg_broadcast_loop(global const int *m, global const int *x, global int *y) {
  size_t i = get_global_id(0);
  uint n = get_sub_group_size();
  uint lid = get_sub_group_local_id();
  uint base = i - lid;
  int xv = x[i];
  int acc = 0;
  for (uint k = 0; k < n; ++k)
    acc += m[(base + lid) * n + k] * sub_group_broadcast(xv, k);
  y[i] = acc;
}
