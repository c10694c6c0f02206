// Float built-ins that the spec requires to be exact (0 ulp): rounding to integral values,
// fabs, fmin/fmax, copysign, fmod.
kernel void float_exact(global const float4 *x, global const float *y, global float4 *out) {
  size_t i = get_global_id(0);
  float4 v = x[i];
  float s = y[i];
  out[5 * i] = floor(v);
  out[5 * i + 1] = ceil(v) + trunc(v);
  out[5 * i + 2] = round(v) - rint(v);
  out[5 * i + 3] = fmin(fabs(v), s);
  out[5 * i + 4] = copysign(fmax(v, (float4)(s)), -v) + fmod(v, 1.5f);
}
