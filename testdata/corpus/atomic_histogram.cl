// Global histogram with OpenCL 1.x atomics across many work-groups: a count per bin
// (atomic_inc) and a weighted sum (atomic_add).
kernel void atomic_histogram(global const uint *data, global uint *count, global int *weight,
                             uint nbins) {
  size_t i = get_global_id(0);
  uint v = data[i];
  uint b = v % nbins;
  atomic_inc(&count[b]);
  atomic_add(&weight[b], (int)(v & 0xff) - 128);
}
