// Direct recursion, which OpenCL C forbids (6.11) and the OpenCL SPIR-V environment
// refuses (no cycle in an entry point's static call graph). At -O2 clang turns the tail
// call into a loop: that module has no cycle and runs; at -O0 the call stays and the
// module is refused.
int sum(int n) { return n == 0 ? 0 : n + sum(n - 1); }

kernel void direct_recursion(global const int *n, global int *sums) {
  const size_t i = get_global_id(0);
  sums[i] = sum(n[i]);
}
