// A tiny ALU: one opcode per work-item selects the operation (dense switch, jump table).
kernel void switch_dense(global const uchar *op, global const int *a, global const int *b,
                         global int *out) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i], r;
  switch (op[i]) {
    case 0: r = x + y; break;
    case 1: r = x - y; break;
    case 2: r = x * y; break;
    case 3: r = y != 0 ? x / y : 0; break;
    case 4: r = x & y; break;
    case 5: r = x | y; break;
    case 6: r = x ^ y; break;
    case 7: r = (int)((uint)x << (y & 31)); break;
    case 8: r = x >> (y & 31); break;
    case 9: r = min(x, y); break;
    default: r = -1; break;
  }
  out[i] = r;
}
