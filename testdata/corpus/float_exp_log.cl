// Transcendental built-ins, compared with the model within the spec's ulp limits.
kernel void float_exp_log(global const float *x, global float *e, global float *l,
                          global float *s, global float *c, global float *p) {
  size_t i = get_global_id(0);
  float v = x[i];
  e[i] = exp(v);
  l[i] = log(fabs(v) + 1.0f);
  s[i] = sin(v);
  c[i] = cos(v);
  p[i] = pow(fabs(v), 1.75f);
}
