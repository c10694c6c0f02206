// Per row: index of the first non-negative element above a threshold (-1 if none) and how
// many non-negative elements were looked at up to there. continue + break in one loop.
kernel void first_above(global const int *data, global int *pos, global int *seen,
                        int width, int threshold) {
  int row = get_global_id(0);
  global const int *p = data + row * width;
  int found = -1, count = 0;
  for (int j = 0; j < width; ++j) {
    int v = p[j];
    if (v < 0)
      continue;
    ++count;
    if (v > threshold) {
      found = j;
      break;
    }
  }
  pos[row] = found;
  seen[row] = count;
}
