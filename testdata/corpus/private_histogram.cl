// A 16-bin histogram of 32 bytes in a private uchar array; outputs the most frequent bin
// (lowest on ties) and its count.
kernel void private_histogram(global const uchar *data, global uchar *mode,
                              global uchar *count) {
  int i = get_global_id(0);
  uchar bins[16];
  for (int b = 0; b < 16; ++b)
    bins[b] = 0;
  for (int k = 0; k < 32; ++k)
    bins[data[i * 32 + k] >> 4]++;
  uchar best = 0;
  for (int b = 1; b < 16; ++b)
    if (bins[b] > bins[best])
      best = b;
  mode[i] = best;
  count[i] = bins[best];
}
