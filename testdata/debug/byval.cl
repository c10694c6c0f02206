// A struct passed by value: `change` gets its own copy of the caller's r
// (tools/cli/debug_inspect_test.cc).
typedef struct {
  int a;
  int b[3];
} rec;

int change(rec r, int k) {
  r.a = k;
  r.b[1] = k + 1;
  return r.a + r.b[1];
}

kernel void byval(global int* out) {
  int i = get_global_id(0);
  rec r = {i, {i, 2 * i, 3 * i}};
  int v = change(r, 100);
  out[i] = v + r.a + r.b[1];
}
