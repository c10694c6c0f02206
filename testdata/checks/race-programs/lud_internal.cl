// The trailing-submatrix update of a blocked LU decomposition, in the manner of
// Rodinia's lud_internal: for the block step at `offset`, work-group (bx, by) updates
// block (offset/16 + 1 + bx, offset/16 + 1 + by) of the matrix in place, from the
// perimeter row and column blocks (read by every work-group of their row or column,
// written by none), staged in local memory. Each element of the trailing blocks is read
// and then written by its own work-item only.
#define B 16
kernel void lud_internal(global float* m, int n, int offset) {
  local float row[B][B], col[B][B];
  int bx = get_group_id(0), by = get_group_id(1);
  int tx = get_local_id(0), ty = get_local_id(1);
  int gr = offset + (by + 1) * B, gc = offset + (bx + 1) * B;
  row[ty][tx] = m[(offset + ty) * n + gc + tx];
  col[ty][tx] = m[(gr + ty) * n + offset + tx];
  barrier(CLK_LOCAL_MEM_FENCE);
  float sum = 0.0f;
  for (int k = 0; k < B; ++k) sum += col[ty][k] * row[k][tx];
  m[(gr + ty) * n + gc + tx] -= sum;
}
