// A private array given all its values by an initializer list, read at a data-dependent
// index and stored to global memory.
kernel void private_array_initializer_list(global int* out, global const int* idx) {
  size_t i = get_global_id(0);
  int table[5] = {11, 22, 33, 44, 55};
  out[i] = table[idx[i]];
}
