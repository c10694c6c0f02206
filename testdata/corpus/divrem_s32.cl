// Signed quotient and remainder (truncation toward zero) with per-element divisors.
kernel void divrem_s32(global const int *a, global const int *b, global int2 *qr) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  int q = x / y;
  int r = x % y;
  qr[i] = (int2)(q, r);
}
