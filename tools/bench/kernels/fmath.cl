// Float arithmetic loop: fma/mad, sqrt, sin, cos, exp, log on values that stay in a
// well-conditioned range (a contracting recurrence), one result per work-item.
__kernel void fmath(__global const float *in, __global float *out, int iters) {
  int i = get_global_id(0);
  float x = in[i], acc = 0.0f;
  for (int k = 0; k < iters; ++k) {
    float t = fma(x, 0.75f, 0.25f);
    acc = mad(sqrt(t), 0.5f, acc);
    acc += sin(t) * exp(-t);
    acc += cos(t) * 0.125f + log(1.0f + t) * 0.0625f;
    x = t;
  }
  out[i] = acc;
}
