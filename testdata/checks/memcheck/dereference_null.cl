// The second argument is NULL (clSetKernelArg with a NULL cl_mem); every work-item
// reads through it.
kernel void dereference_null(global int* out, global const int* table) {
  size_t i = get_global_id(0);
  out[i] = table[i] + 1;
}
