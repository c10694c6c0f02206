// Vector division and remainder (int4) and ushort division by a run-time value.
kernel void divrem_vec(global const int4 *a, global const int4 *b, global int4 *q,
                       global int4 *r, global const ushort *h, global ushort *hq, ushort d) {
  size_t i = get_global_id(0);
  int4 x = a[i], y = b[i];
  q[i] = x / y;
  r[i] = x % y;
  hq[i] = h[i] / d + h[i] % d;
}
