// Strided sum of shorts into an int (and the truncated short), loop unrolled by a pragma.
kernel void strided_short_sum(global const short *x, global int *sum, global short *low,
                              int stride, int count) {
  int i = get_global_id(0);
  int s = 0;
#pragma unroll 4
  for (int k = 0; k < count; ++k)
    s += x[i + k * stride];
  sum[i] = s;
  low[i] = (short)s;
}
