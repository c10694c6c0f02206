// C = A * B for n x n row-major float matrices, one work-item per element of C.
kernel void matmul(global const float *a, global const float *b, global float *c, int n) {
  int col = get_global_id(0);
  int row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc;
}
