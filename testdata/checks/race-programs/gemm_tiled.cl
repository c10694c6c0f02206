// C = A x B for 128x128 matrices, 16x16 tiles staged in local memory: a barrier after
// loading each tile and another before the next tile overwrites it. Every element of A
// and B is read by the 8 work-groups of its row or column of tiles.
#define T 16
kernel void gemm_tiled(global const float* a, global const float* b, global float* c, int n) {
  local float as[T][T], bs[T][T];
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n / T; ++t) {
    as[ly][lx] = a[row * n + t * T + lx];
    bs[ly][lx] = b[(t * T + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < T; ++k) acc += as[ly][k] * bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = acc;
}
