// A private struct whose char array is followed by padding: indices 2 and 3 of tag[2]
// stay inside the struct (its padding), outside the array.
struct Rec {
  float weight;
  uchar tag[2];
};

kernel void static_array_padded_struct(global uchar* out) {
  struct Rec r = {0.5f, {11, 22}};
  int i = (int)get_global_id(0);
  out[i] = r.tag[i];
}
