// 64-bit atomics of cl_khr_int64_base/extended_atomics: a running total beyond 32 bits,
// a counter, and the extremes.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void atom_long(global const long *in, global long *total, global ulong *counter,
                      global long *extremes) {
  size_t i = get_global_id(0);
  long v = in[i];
  atom_add(total, v);
  atom_inc(counter);
  atom_min(&extremes[0], v);
  atom_max(&extremes[1], v);
  atom_xor(&extremes[2], v);
}
