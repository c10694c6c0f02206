// A 3-D grid's faces (and the planes x == 5, y == 9) copied, every other cell averaged with
// its x neighbours. With clang's SLP vectoriser (off in the compile driver) the eight
// comparisons became two <4 x i1> bitcasts to i4 at -O2.
kernel void faces3d(global const float *in, global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int i = (z * h + y) * w + x;
  if (x == 0 || y == 0 || z == 0 || x == w - 1 || y == h - 1 || z == 7 || x == 5 || y == 9) {
    out[i] = in[i];
    return;
  }
  out[i] = in[i] * 0.5f + in[i + 1] + in[i - 1];
}
