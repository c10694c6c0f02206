// OpenCL C for a 32-bit device (run_physical32.py: clang-15 -target spir, -O0 and -O2).
// Program-scope pointers with initial values: 32-bit addresses written before the launch.
constant int ca = 11, cb = 22;
constant int* constant table[2] = {&ca, &cb};
global int gx = 5;
global int* global gp = &gx;

kernel void program_scope(global int* out) {
  size_t i = get_global_id(0);
  out[i] = *table[i & 1] + *gp * 100 + (int)((uintptr_t)gp - (uintptr_t)&gx) + sizeof(table);
}
