// spvsim debug tests: at -O2, j is the same in every lane (a kernel argument plus 2), so
// the executor knows its register is uniform; `set var j@all` must make it per lane again.
kernel void uniform_index(global const uint *in, global uint *out, uint n) {
  uint i = get_global_id(0);
  uint j = n + 2u;
  out[i] = in[j];
}
