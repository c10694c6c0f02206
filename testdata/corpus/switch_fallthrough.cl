// Fall-through cases: Duff's-device-style tail sum and a character classifier.
kernel void switch_fallthrough(global const int *a, global const uchar *text,
                               global int *tail, global uchar *cls) {
  size_t i = get_global_id(0);
  int s = 0;
  switch (i & 3) {
    case 3: s += a[i + 3];
    case 2: s += a[i + 2];
    case 1: s += a[i + 1];
    case 0: s += a[i];
  }
  tail[i] = s;
  uchar c = text[i], k;
  switch (c) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
      k = 1;
      break;
    case ' ': case '\t': case '\n':
      k = 2;
      break;
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      k = 3;
      break;
    default:
      k = (c >= 'a' && c <= 'z') ? 4 : 0;
  }
  cls[i] = k;
}
