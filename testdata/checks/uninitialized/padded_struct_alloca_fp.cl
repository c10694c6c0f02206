// A private array of padded structs, each member written by the work-item, then one
// element stored whole to global memory: its padding was never written, its members were.
typedef struct { char c; float f; short s; long l; } Pair;  // padding after c and s

kernel void padded_struct_alloca_fp(global Pair* out, global const float* in) {
  size_t i = get_global_id(0);
  Pair p[2];
  for (int k = 0; k < 2; ++k) {
    p[k].c = (char)(k + 1);
    p[k].f = in[i] * (k + 1);
    p[k].s = (short)k;
    p[k].l = (long)i << 33;
  }
  out[i] = p[i & 1];
}
