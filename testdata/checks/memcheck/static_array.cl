// A program-scope 2-D table read along its first row: work-items 2 and 3 run off the
// end of row 0 into row 1.
constant int table[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};

kernel void static_array(global int* out) {
  int i = (int)get_global_id(0);
  out[i] = table[0][i + 2];
}
