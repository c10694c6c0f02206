// Component tests of vectors joined by || and && (clang's SLP vectoriser, off in the
// compile driver, made them <4 x i1>).
kernel void logic_vector(global const int4 *a, global const float4 *b, global int *out) {
  size_t i = get_global_id(0);
  int4 v = a[i];
  float4 w = b[i];
  int r = 0;
  if (v.x > 0 || v.y > 0 || v.z > 0 || v.w > 0)
    r |= 1;
  if (v.x != 0 && v.y != 0 && v.z != 0 && v.w != 0)
    r |= 2;
  if (w.x < 0.0f || w.y < 0.0f || w.z < 0.0f || w.w < 0.0f)
    r |= 4;
  if (any(v < (int4)(-5)) && all(w != (float4)(0.0f)))
    r |= 8;
  out[i] = r;
}
