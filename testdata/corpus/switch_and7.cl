// A switch on the low three bits that covers every value: clang narrows the condition to
// i3/i4 and turns the switch into a lookup table at -O2.
kernel void switch_and7(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  int x = in[i];
  int r = 0;
  switch (x & 7) {
    case 0: r = 10; break;
    case 1: r = 20; break;
    case 2: r = 35; break;
    case 3: r = 41; break;
    case 4: r = 59; break;
    case 5: r = 61; break;
    case 6: r = 77; break;
    case 7: r = 80; break;
  }
  out[i] = r;
}
