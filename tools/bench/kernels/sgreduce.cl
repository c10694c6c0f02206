// The reduction of lreduce.cl through sub-group collectives (cl_khr_subgroups, OpenCL
// 2.0+): each sub-group sums its items, the first sub-group sums the partial sums.
__kernel void sgreduce(__global const int *in, __global int *sums, __local int *partial) {
  int sum = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0)
    partial[get_sub_group_id()] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_sub_group_id() == 0) {
    uint l = get_sub_group_local_id(), n = get_num_sub_groups();
    int total = 0;
    for (uint b = 0; b < n; b += get_sub_group_size())
      total += sub_group_reduce_add(b + l < n ? partial[b + l] : 0);
    if (l == 0)
      sums[get_group_id(0)] = total;
  }
}
