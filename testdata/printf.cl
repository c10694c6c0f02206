// printf of integers, floats, strings, characters and vectors.
__kernel void print_one(__global int *data) {
  int i = data[0];
  float f = 1.5f;
  printf("int %d neg %d uint %u hex %x HEX %X oct %o\n", i, -i, 4000000000u, 255, 48879, 8);
  printf("pad [%5d] [%-5d] [%05d] [%+d]\n", i, i, i, i);
  printf("long %ld ulong %lu\n", -1234567890123L, 18446744073709551615UL);
  printf("float %f %.2f %e %g %g\n", f, 3.14159f, 1250.0f, 0.0001f, 100000.0f);
  printf("string [%s] [%10s] char %c%c\n", "hello", "right", 'o', 'k');
  printf("int4 %v4d\n", (int4)(1, -2, 3, -4));
  printf("float4 %v4hlf\n", (float4)(0.5f, 1.0f, -2.25f, 8.0f));
  printf("uchar2 %v2hhu percent %%\n", (uchar2)(7, 250));
  data[0] = i * 2;
}

// One line per work-item; lines of different work-items may come in any order.
__kernel void print_each(__global const float *x) {
  size_t i = get_global_id(0);
  printf("wi %u: x=%.3f sq=%d %s\n", (uint)i, x[i], (int)(i * i), (i & 1) ? "odd" : "even");
}
