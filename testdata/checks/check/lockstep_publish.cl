// Work-item 0 stores a value that work-item 1 then loads, with no barrier or atomic
// between them. The two are in one sub-group and spvsim runs its lanes in lockstep, so
// every run gives 42; OpenCL does not promise lockstep, and the store and the load are
// a data race (OpenCL C 6.15.12 memory model: conflicting accesses not ordered by
// happens-before) that only the race checker sees.
kernel void lockstep_publish(global int* data, global int* out) {
  if (get_local_id(0) == 0) data[0] = 42;
  if (get_local_id(0) == 1) out[0] = data[0];
}
