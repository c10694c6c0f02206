// A 3x3 box blur of a 64x64 RGBA8 image (16 KB), edges clamped: every pixel is read by
// up to nine work-items of up to four work-groups; the result goes to a second image.
kernel void blur_rgba(global const uchar4* in, global uchar4* out, int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  uint4 sum = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int sx = clamp(x + dx, 0, width - 1), sy = clamp(y + dy, 0, height - 1);
      sum += convert_uint4(in[sy * width + sx]);
    }
  out[y * width + x] = convert_uchar4((sum + 4) / 9);
}
