// A struct kernel argument passed by value, and a struct passed by value to a function.
typedef struct {
  int n;
  float scale;
  short offset;
} params;

__attribute__((noinline)) float apply(params p, float x) {
  float y = x * p.scale;
  return y + (float)(p.offset + p.n);
}

kernel void struct_by_value(params p, global const float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = i < (size_t)p.n ? apply(p, in[i]) : in[i];
}
