// A thermal-simulation step in the manner of Rodinia's hotspot: each 16x16 work-group
// loads its tile of the temperature grid and a one-cell halo into local memory, then
// runs two in-tile iterations (barriers between the reads and the writes of the tile),
// and writes its cells to a second grid. The grids are read-only inputs and a
// write-only output: nothing in the launch conflicts.
#define T 16
kernel void hotspot_tiles(global const float* power, global const float* temp_in,
                          global float* temp_out, int rows, int cols, float cap, float rx,
                          float ry, float rz, float amb) {
  local float tile[T + 2][T + 2];
  local float next[T][T];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x = get_global_id(0), y = get_global_id(1);
  tile[ly + 1][lx + 1] = temp_in[y * cols + x];
  if (lx == 0) tile[ly + 1][0] = temp_in[y * cols + max(x - 1, 0)];
  if (lx == T - 1) tile[ly + 1][T + 1] = temp_in[y * cols + min(x + 1, cols - 1)];
  if (ly == 0) tile[0][lx + 1] = temp_in[max(y - 1, 0) * cols + x];
  if (ly == T - 1) tile[T + 1][lx + 1] = temp_in[min(y + 1, rows - 1) * cols + x];
  float p = power[y * cols + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int step = 0; step < 2; ++step) {
    float c = tile[ly + 1][lx + 1];
    float d = cap * (p + (tile[ly + 2][lx + 1] + tile[ly][lx + 1] - 2.0f * c) * ry +
                     (tile[ly + 1][lx + 2] + tile[ly + 1][lx] - 2.0f * c) * rx +
                     (amb - c) * rz);
    next[ly][lx] = c + d;
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[ly + 1][lx + 1] = next[ly][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  temp_out[y * cols + x] = tile[ly + 1][lx + 1];
}
