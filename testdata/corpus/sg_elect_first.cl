// sub_group_elect and sub_group_broadcast_first in divergent code.
kernel void sg_elect_first(global const int *in, global int *first, global int *elected) {
  size_t i = get_global_id(0);
  int v = in[i];
  int f = -1, e = -1;
  if (v % 3 != 0) {
    f = sub_group_broadcast_first(v);
    e = sub_group_elect();
  }
  first[i] = f;
  elected[i] = e;
}
