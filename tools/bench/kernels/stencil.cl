// 2-D 5-point stencil (one Jacobi step) on a width x height float grid; border cells
// are copied.
__kernel void stencil(__global const float *in, __global float *out, int width,
                      int height) {
  int x = get_global_id(0), y = get_global_id(1), i = y * width + x;
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.5f * in[i] +
           0.125f * ((in[i - 1] + in[i + 1]) + (in[i - width] + in[i + width]));
}
