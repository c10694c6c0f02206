// Component sums of float vectors: C evaluates left to right, and without fast-math the
// compiler must keep that order (vector-reduce intrinsics must be ordered).
kernel void float_sum_order(global const float4 *x, global const float8 *y, global float *s4,
                            global float *s8) {
  size_t i = get_global_id(0);
  float4 v = x[i];
  float8 w = y[i];
  s4[i] = v.x + v.y + v.z + v.w;
  s8[i] = w.s0 + w.s1 + w.s2 + w.s3 + w.s4 + w.s5 + w.s6 + w.s7;
}
