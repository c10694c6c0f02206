// C = A * B with TILE x TILE tiles staged in local memory (n a multiple of TILE).
#define TILE 8
kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul_tiled(global const float *a, global const float *b, global float *c, int n) {
  local float as[TILE][TILE];
  local float bs[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    as[ty][tx] = a[row * n + t * TILE + tx];
    bs[ty][tx] = b[(t * TILE + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k)
      acc += as[ty][k] * bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = acc;
}
