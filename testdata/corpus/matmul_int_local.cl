// Integer matrix product, row of A cached in local memory passed by the host (one
// work-group per row of C).
kernel void matmul_int_local(global const int *a, global const int *b, global int *c,
                             local int *arow, int n) {
  int row = get_group_id(0);
  int col = get_local_id(0);
  for (int k = col; k < n; k += get_local_size(0))
    arow[k] = a[row * n + k];
  barrier(CLK_LOCAL_MEM_FENCE);
  int acc = 0;
  for (int k = 0; k < n; ++k)
    acc += arow[k] * b[k * n + col];
  c[row * n + col] = acc;
}
