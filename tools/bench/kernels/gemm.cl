// C = A * B for n x n row-major float matrices (n a multiple of 16), 16 x 16 tiles of A
// and B staged in local memory: the classic compute-bound tiled GEMM.
#define TS 16
__kernel void gemm(__global const float *A, __global const float *B, __global float *C,
                   int n) {
  __local float As[TS][TS], Bs[TS][TS];
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_group_id(0) * TS + lx, row = get_group_id(1) * TS + ly;
  float acc = 0.0f;
  for (int t = 0; t < n; t += TS) {
    As[ly][lx] = A[row * n + t + lx];
    Bs[ly][lx] = B[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k)
      acc = mad(As[ly][k], Bs[k][lx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
