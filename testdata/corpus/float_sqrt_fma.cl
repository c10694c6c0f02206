// sqrt, rsqrt, hypot (ulp limits of the full profile) and fma (correctly rounded).
kernel void float_sqrt_fma(global const float *a, global const float *b, global const float *c,
                           global float *root, global float *inv_root, global float *fused,
                           global float *hyp) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i], z = c[i];
  root[i] = sqrt(x);
  inv_root[i] = rsqrt(x);
  fused[i] = fma(x, y, z);
  hyp[i] = hypot(y, z);
}
