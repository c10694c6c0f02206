// A 5-point Jacobi step written in place, a classic mistake: the work-group barrier
// orders the reads of a work-group before its writes, but not those of other
// work-groups, which read the cells along the tile edges (edges clamped to the grid).
kernel void jacobi_in_place(global float* grid, int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  float c = grid[y * width + x];
  float w = grid[y * width + max(x - 1, 0)];
  float e = grid[y * width + min(x + 1, width - 1)];
  float s = grid[max(y - 1, 0) * width + x];
  float nn = grid[min(y + 1, height - 1) * width + x];
  barrier(CLK_GLOBAL_MEM_FENCE);
  grid[y * width + x] = 0.2f * (c + w + e + s + nn);
}
