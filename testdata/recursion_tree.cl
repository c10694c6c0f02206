// fib calls itself twice, not as a tail call: no optimisation level removes the cycle,
// so the program is refused at every level (see recursion_direct.cl).
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

kernel void tree_recursion(global const int *n, global int *out) {
  out[get_global_id(0)] = fib(n[get_global_id(0)]);
}
