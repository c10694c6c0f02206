// Valid code that looks like an overrun: a struct whose first array is one byte long,
// copied whole, read through in-range indices of its second array, a one-past-the-end
// pointer used only as a loop bound, and a byte view of the struct.
struct Pair {
  uchar flag[1];
  ulong vals[4];
};

kernel void fake_out_of_bounds(global ulong* out, int n) {
  struct Pair p = {{1}, {10, 20, 30, 40}};
  struct Pair q = p;
  int i = (int)get_global_id(0);
  ulong sum = q.vals[i];
  for (ulong* v = &q.vals[0]; v != &q.vals[n]; ++v) sum += *v;
  const uchar* bytes = (const uchar*)&q;
  out[i] = sum + bytes[i * 8 + 8] + q.flag[0];
}
