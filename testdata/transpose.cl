// out (H x W) = transpose of in (W x H, row-major, W = get_global_size(0)),
// staged through a TILE x TILE tile in local memory (+1 column against bank conflicts).
#define TILE 16
__kernel void transpose(__global const uint *in, __global uint *out) {
  __local uint tile[TILE][TILE + 1];
  size_t W = get_global_size(0), H = get_global_size(1);
  size_t lx = get_local_id(0), ly = get_local_id(1);
  size_t gx = get_group_id(0), gy = get_group_id(1);
  tile[ly][lx] = in[(gy * TILE + ly) * W + gx * TILE + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  // Block (gx, gy) of `in` becomes block (gy, gx) of `out`; out has W rows of H.
  out[(gx * TILE + ly) * H + gy * TILE + lx] = tile[lx][ly];
}
