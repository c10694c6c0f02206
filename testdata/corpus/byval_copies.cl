// Structs and unions passed by value: each call's parameter is the callee's own copy
// (C11 6.5.2.2p4, "the value of each argument"), so what a callee does to it never
// reaches the caller's object. Callees change their copies (a byte of a union, array
// members in a loop), pass them on by value (nested calls), and callers read their own
// objects afterwards; the kernel's struct argument is passed on to a helper too.
typedef union {
  int i;
  uchar b[4];
} word;

typedef struct {
  int a;
  int b[3];
  float c;
} rec;

typedef struct {
  rec r;
  word w;
  short tag;
} outer;

__attribute__((noinline)) int scramble(word w) {
  const int before = w.i;
  w.b[0] ^= (uchar)0xff;  // the low byte (little-endian)
  w.i += 1;
  return before * 3 + w.i;
}

__attribute__((noinline)) int bump(rec r, int k) {
  for (int j = 0; j < 3; ++j) r.b[j] += k * (j + 1);
  r.a -= k;
  r.c *= 2.0f;
  return r.a + r.b[0] + r.b[1] + r.b[2] + (int)r.c;
}

__attribute__((noinline)) int nested(outer o, int k) {
  o.r.a *= 2;
  o.tag = (short)(o.tag + k);
  const int x = bump(o.r, k);
  const int y = scramble(o.w);
  // o.r and o.w are still this call's values, whatever bump and scramble did.
  return x + y + o.r.a + o.r.b[1] + o.w.i + o.tag;
}

kernel void byval_copies(rec p, global const int *in, global int *out) {
  const int i = (int)get_global_id(0);
  word w;
  w.i = in[i];
  rec r = {i, {in[i], 2 * in[i], -in[i]}, 1.5f};
  outer o = {r, w, (short)(i - 4)};
  global int *res = out + 12 * i;
  res[0] = scramble(w);
  res[1] = bump(r, 3);
  res[2] = nested(o, i);
  res[3] = bump(p, i);
  res[4] = w.i;
  res[5] = r.a + r.b[0] + r.b[1] + r.b[2] + (int)(r.c * 2.0f);
  res[6] = o.r.a;
  res[7] = o.r.b[0] + o.r.b[2];
  res[8] = o.w.i;
  res[9] = o.tag;
  res[10] = p.a + p.b[0] + p.b[1] + p.b[2];
  res[11] = (int)(p.c * 4.0f);
}
