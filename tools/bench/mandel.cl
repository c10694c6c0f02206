// Loop-heavy and divergent: escape-time iteration count of each pixel of a W x H view
// of the Mandelbrot set (at most max_iter iterations per pixel).
__kernel void mandel(__global uint *out, int max_iter) {
  size_t x = get_global_id(0), y = get_global_id(1);
  size_t w = get_global_size(0), h = get_global_size(1);
  float cr = -2.0f + 2.5f * x / w, ci = -1.25f + 2.5f * y / h;
  float zr = 0.0f, zi = 0.0f;
  int i = 0;
  while (i < max_iter && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++i;
  }
  out[y * w + x] = i;
}
