// A state machine over 32 bytes per work-item: counts words and numbers (switch in a loop).
enum { SPACE, WORD, NUMBER };
kernel void tokenizer(global const uchar *text, global ushort *words, global ushort *numbers,
                      global uint *digit_sum) {
  size_t i = get_global_id(0);
  global const uchar *p = text + i * 32;
  int state = SPACE;
  ushort nw = 0, nn = 0;
  uint ds = 0;
  for (int k = 0; k < 32; ++k) {
    uchar c = p[k];
    int digit = c >= '0' && c <= '9';
    int alpha = (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
    switch (state) {
      case SPACE:
        if (digit) { state = NUMBER; ++nn; ds += c - '0'; }
        else if (alpha) { state = WORD; ++nw; }
        break;
      case WORD:
        if (!alpha && !digit) state = SPACE;
        break;
      case NUMBER:
        if (digit) ds += c - '0';
        else if (alpha) { state = WORD; ++nw; }
        else state = SPACE;
        break;
    }
  }
  words[i] = nw;
  numbers[i] = nn;
  digit_sum[i] = ds;
}
