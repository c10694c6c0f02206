// A private array seen through a pointer to rows of 4: row 0 indexed up to 4.
kernel void casted_static_array(global int* out) {
  int buf[8];
  for (int k = 0; k < 8; ++k) buf[k] = 3 * k;
  int (*rows)[4] = (int (*)[4])buf;
  int i = (int)get_global_id(0);
  out[i] = rows[0][i + 1];
}
