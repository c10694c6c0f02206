// intel_sub_group_block_read/write of uint in a loop: each sub-group sums 4 rows of 8
// columns (block reads) and writes the result with a block write.
kernel __attribute__((intel_reqd_sub_group_size(8)))
void sg_block_read_uint(global const uint *in, global uint *out, int rows) {
  uint sg = get_global_id(0) / 8;
  const global uint *p = in + sg * 8 * rows;
  uint acc = 0;
  for (int r = 0; r < rows; r += 2) {
    uint2 v = intel_sub_group_block_read2(p + r * 8);
    acc += v.x * (r + 1) + v.y;
  }
  intel_sub_group_block_write(out + sg * 8, acc);
}
