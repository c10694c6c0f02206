// sub_group_rotate and sub_group_clustered_rotate with constant deltas in each arm.
kernel void sg_rotate_branch(global const int *in, global int *rot, global int *crot) {
  size_t i = get_global_id(0);
  int v = in[i];
  int r, c;
  if (get_group_id(0) & 1) {
    r = sub_group_rotate(v, 1);
    c = sub_group_clustered_rotate(v, 1, 4);
  } else {
    r = sub_group_rotate(v, 5);
    c = sub_group_clustered_rotate(v, 3, 8);
  }
  rot[i] = r;
  crot[i] = c;
}
