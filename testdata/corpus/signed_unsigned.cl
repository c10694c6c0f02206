// Usual arithmetic conversions between signed and unsigned types of several widths.
kernel void signed_unsigned(global const int *a, global const uint *b, global const char *c,
                            global int *out) {
  size_t i = get_global_id(0);
  int x = a[i];
  uint y = b[i];
  char z = c[i];
  uchar uz = (uchar)z;
  int r = 0;
  if (x < y) r |= 1;                    /* x converted to uint */
  if ((long)x < (long)y) r |= 2;
  if (z < 0) r |= 4;
  if (uz > 127) r |= 8;
  if ((short)y < 0) r |= 16;
  out[4 * i] = r;
  out[4 * i + 1] = x >> 3;              /* arithmetic shift */
  out[4 * i + 2] = (int)((uint)x >> 3);
  out[4 * i + 3] = z * (int)uz + (int)(y % 1000u) - (ushort)x;
}
