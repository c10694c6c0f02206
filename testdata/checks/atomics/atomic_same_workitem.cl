// Each work-item mixes plain and atomic accesses on its own element only.
kernel void atomic_same_workitem(global int* data) {
  size_t i = get_global_id(0);
  data[i] = (int)i;
  atomic_add(&data[i], 10);
  data[i] = data[i] * 2;
}
