// The OpenCL 1.0 extension atomics (cl_khr_global_int32_base_atomics).
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
kernel void atom_add(global int* sum) { atom_add(sum, (int)get_global_id(0)); }
