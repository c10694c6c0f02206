// Every work-item writes every work-item built-in for dimensions 0, 1 and 2 (those at or
// above get_work_dim() must give the defaults) at out[get_global_linear_id() * 28 + field].
// (No dimension 3: llvm-spirv-15 turns get_global_id(d) for a run-time d into an unguarded
// OpVectorExtractDynamic, undefined for d >= 3; a loop over d or a constant 3 gives invalid
// SPIR-V. So the dimensions are spelt out.)
#define NF 28
#define FIELDS(d)                                                                     \
  do {                                                                                \
    o[d * 8 + 0] = get_global_id(d);                                                  \
    o[d * 8 + 1] = get_local_id(d);                                                   \
    o[d * 8 + 2] = get_group_id(d);                                                   \
    o[d * 8 + 3] = get_local_size(d);                                                 \
    o[d * 8 + 4] = get_enqueued_local_size(d);                                        \
    o[d * 8 + 5] = get_num_groups(d);                                                 \
    o[d * 8 + 6] = get_global_size(d);                                                \
    o[d * 8 + 7] = get_global_offset(d);                                              \
  } while (0)

__kernel void ndrange(__global uint *out) {
  __global uint *o = out + get_global_linear_id() * NF;
  FIELDS(0);
  FIELDS(1);
  FIELDS(2);
  o[24] = get_global_linear_id();
  o[25] = get_local_linear_id();
  o[26] = get_work_dim();
  o[27] = 0xC0FFEE;
}
