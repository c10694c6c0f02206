// blur_rgba.cl writing its result back into the image, with a work-group barrier
// between the reads and the writes: it orders one work-group's accesses, not those of
// the neighbouring work-groups, which read the pixels along the tile edges.
kernel void blur_in_place(global uchar4* img, int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  uint4 sum = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int sx = clamp(x + dx, 0, width - 1), sy = clamp(y + dy, 0, height - 1);
      sum += convert_uint4(img[sy * width + sx]);
    }
  barrier(CLK_GLOBAL_MEM_FENCE);
  img[y * width + x] = convert_uchar4((sum + 4) / 9);
}
