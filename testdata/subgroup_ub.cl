// Undefined behaviour in sub-group code that spvsim reports (testdata/cases.py runs each).

// non-uniform-collective: a sub-group reduction reached by only the positive lanes.
kernel void reduce_in_branch(global int *data) {
  size_t i = get_global_linear_id();
  if (data[i] > 0) data[i] = sub_group_reduce_add(data[i]);
}

// non-uniform-argument: sub_group_broadcast needs the same lane id in every lane.
kernel void broadcast_varying_id(global int *data) {
  size_t i = get_global_linear_id();
  data[i] = sub_group_broadcast(data[i], get_sub_group_local_id() & 1);
}

// shuffle-out-of-range (a warning: only the value is undefined): the last lane reads
// past the end of the sub-group.
kernel void shuffle_past_end(global int *data) {
  size_t i = get_global_linear_id();
  data[i] = sub_group_shuffle(data[i], get_sub_group_local_id() + 1);
}

// misaligned-block-io: block reads need a 4-byte aligned pointer.
kernel void misaligned_block_read(global uint *data) {
  size_t i = get_global_linear_id();
  data[i] = intel_sub_group_block_read((const global uint *)((global char *)data + 2));
}
