// Sparse case values, including negative ones and large gaps (no jump table).
kernel void switch_sparse(global const int *code, global short *out) {
  size_t i = get_global_id(0);
  int c = code[i];
  short r;
  switch (c) {
    case -5: r = 500; break;
    case 1: r = 1; break;
    case 10: r = 10; break;
    case 100: r = -100; break;
    case 1000: r = 1000; break;
    case 0x7fff: r = 32767; break;
    case 123456: r = -32768; break;
    default: r = (short)(c & 0xff); break;
  }
  out[i] = r;
}
