// Naive C = A * B for N x N row-major float matrices (N = get_global_size(0)).
__kernel void matmul(__global const float *A, __global const float *B, __global float *C) {
  size_t col = get_global_id(0), row = get_global_id(1), n = get_global_size(0);
  float acc = 0.0f;
  for (size_t k = 0; k < n; ++k)
    acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}
