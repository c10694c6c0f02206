// cl_intel_subgroups: block reads and writes strided by the sub-group size, and the
// Intel shuffles. Each sub-group owns 16 consecutive uints of `in` and 32 of `out`.
//   spvsim run testdata/intel_subgroups.cl --kernel block_shuffle --global 32 --local 16 \
//     --arg 'buffer:uint[64]=range(100)' --arg 'buffer:uint[128]=zero' --dump
__attribute__((intel_reqd_sub_group_size(8)))
kernel void block_shuffle(global const uint *in, global uint *out) {
  uint lid = get_sub_group_local_id();
  size_t sg = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
  // Lane l gets (in[16 sg + l], in[16 sg + 8 + l]).
  uint2 v = intel_sub_group_block_read2(in + 16 * sg);
  uint reversed = intel_sub_group_shuffle(v.x, 7 - lid);
  uint down = intel_sub_group_shuffle_down(v.x, v.y, 3);  // element lid + 3 of the 16
  uint up = intel_sub_group_shuffle_up(v.x, v.y, 2);      // element 8 + lid - 2 of the 16
  uint swapped = intel_sub_group_shuffle_xor(v.y, 1);     // neighbours exchange
  // Lane l writes out[32 sg + l + 8 k] for k = 0..3.
  intel_sub_group_block_write4(out + 32 * sg, (uint4)(reversed, down, up, swapped));
}
