// spvsim debug tests: an out-of-bounds store (lanes whose i + 4 passes the end of
// `out`) and a loop that never ends when `stop` is 0.
__kernel void shifted(__global int *out) {
  uint i = get_global_id(0);
  int v = (int)i * 3;
  out[i + 4u] = v;
  out[i] = v + 1;
}

__kernel void spin(__global const int *stop, __global int *out) {
  int n = 0;
  while (stop[0] == 0)
    n++;
  out[get_global_id(0)] = n;
}
