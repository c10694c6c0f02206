// char16 arithmetic wraps per component; comparisons give -1/0 masks.
kernel void vec_char16(global const char16 *a, global const char16 *b, global char16 *out,
                       global uchar16 *mag) {
  size_t i = get_global_id(0);
  char16 x = a[i], y = b[i];
  out[2 * i] = (x + y) ^ (x > y);
  out[2 * i + 1] = x * (char16)(3) - (y >> (char16)(2));
  mag[i] = abs(x) + convert_uchar16(y == (char16)(0));
}
