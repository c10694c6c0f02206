// Every work-item writes the sub-group built-ins at out[get_global_linear_id() * 8 + field].
#define NF 8
__kernel void subgroups(__global uint *out) {
  __global uint *o = out + get_global_linear_id() * NF;
  o[0] = get_sub_group_size();
  o[1] = get_max_sub_group_size();
  o[2] = get_num_sub_groups();
  o[3] = get_enqueued_num_sub_groups();
  o[4] = get_sub_group_id();
  o[5] = get_sub_group_local_id();
  o[6] = get_local_linear_id();
  o[7] = get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2);
}

// The required sub-group size overrides the launch's --sub-group-size.
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void subgroups_reqd8(__global uint *out) {
  __global uint *o = out + get_global_linear_id() * NF;
  o[0] = get_sub_group_size();
  o[1] = get_max_sub_group_size();
  o[2] = get_num_sub_groups();
  o[3] = get_enqueued_num_sub_groups();
  o[4] = get_sub_group_id();
  o[5] = get_sub_group_local_id();
  o[6] = get_local_linear_id();
  o[7] = get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2);
}
