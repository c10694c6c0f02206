// dot and cross products of float4 (inputs are small integers: every result is exact).
kernel void vec_dot_cross(global const float4 *a, global const float4 *b, global float *d,
                          global float4 *c) {
  size_t i = get_global_id(0);
  d[i] = dot(a[i], b[i]);
  c[i] = cross(a[i], b[i]);
}
