// A packed struct in a global buffer: its int member sits at byte offset 1 of each
// 5-byte element, which is allowed because the member's alignment is 1.
struct __attribute__((packed)) Sample {
  uchar id;
  int value;
};

kernel void packed(global const struct Sample* in, global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[i].value + in[i].id;
}
