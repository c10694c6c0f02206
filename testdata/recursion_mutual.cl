// Mutual recursion (see recursion_direct.cl): refused at -O0; at -O2 clang inlines one
// function into the other and turns the tail call into a loop, and the module runs.
int is_even(int n);
int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }

kernel void mutual_recursion(global const int *n, global int *even) {
  const size_t i = get_global_id(0);
  even[i] = is_even(n[i]);
}
