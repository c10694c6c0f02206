// Escape-time Mandelbrot: neighbouring pixels leave the loop after very different
// iteration counts, so the lanes of a sub-group diverge. No contraction, so that every
// float operation is one IEEE operation (a host model reproduces the counts exactly).
#pragma OPENCL FP_CONTRACT OFF
__kernel void mandel(__global uint *out, int width, int max_iter, float x0, float y0,
                     float step) {
  int x = get_global_id(0), y = get_global_id(1);
  float cr = x0 + step * (float)x, ci = y0 + step * (float)y;
  float zr = 0.0f, zi = 0.0f;
  int i = 0;
  while (i < max_iter && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++i;
  }
  out[y * width + x] = i;
}
