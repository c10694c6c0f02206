// STREAM triad: a = b + s * c.
__kernel void triad(__global float *a, __global const float *b, __global const float *c,
                    float s) {
  int i = get_global_id(0);
  a[i] = b[i] + s * c[i];
}
