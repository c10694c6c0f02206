// sub_group_shuffle_xor with different masks in the arms of a uniform if, and
// sub_group_shuffle with lane-dependent indices under a uniform switch.
kernel void sg_shuffle_branch(global const uint *in, global uint *x, global uint *y) {
  size_t i = get_global_id(0);
  uint v = in[i];
  uint lid = get_sub_group_local_id();
  uint n = get_sub_group_size();
  uint a, b;
  if (get_group_id(0) % 2 == 0)
    a = sub_group_shuffle_xor(v, 1);
  else
    a = sub_group_shuffle_xor(v, 6);
  switch (get_group_id(0) % 3) {
    case 0: b = sub_group_shuffle(v, (lid + 1) % n); break;
    case 1: b = sub_group_shuffle(v, n - 1 - lid); break;
    default: b = sub_group_shuffle(v, lid / 2); break;
  }
  x[i] = a;
  y[i] = b;
}
