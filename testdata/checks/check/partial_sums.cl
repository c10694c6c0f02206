// Each sub-group's first work-item stores its sub-group's sum at the sub-group's index:
// how many partial sums there are, and their values, depend on the sub-group size
// (legitimate: the sub-group size is part of a kernel's input, OpenCL C 6.15.19).
kernel void partial_sums(global const int* in, global int* sums) {
  int sum = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0)
    sums[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = sum;
}
