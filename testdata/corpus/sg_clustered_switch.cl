// A clustered reduction whose cluster size a kernel argument picks: each case must keep
// its own constant cluster size (SimplifyCFG would merge the calls into one with a phi).
kernel void sg_clustered_switch(global const int *in, global int *out, int which) {
  size_t i = get_global_id(0);
  int v = in[i];
  int r;
  switch (which) {
    case 0: r = sub_group_clustered_reduce_add(v, 2); break;
    case 1: r = sub_group_clustered_reduce_add(v, 4); break;
    default: r = sub_group_clustered_reduce_add(v, 8); break;
  }
  out[i] = r;
}
