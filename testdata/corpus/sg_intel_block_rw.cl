// Intel block reads/writes of ushort, uchar and ulong (cl_intel_subgroups_short/char/long),
// one element type per work-group (a uniform switch). Sub-groups of 8; each sub-group
// handles 16 elements (two per lane).

// clang-15's opencl-c.h declares only the short variants (cl_intel_subgroups_short); the
// char and long ones are declared here as cl_intel_subgroups_char/long specify them.
uchar2 __attribute__((overloadable)) intel_sub_group_block_read_uc2(const global uchar *p);
void __attribute__((overloadable)) intel_sub_group_block_write_uc2(global uchar *p, uchar2 v);
ulong __attribute__((overloadable)) intel_sub_group_block_read_ul(const global ulong *p);
void __attribute__((overloadable)) intel_sub_group_block_write_ul(global ulong *p, ulong v);
kernel __attribute__((intel_reqd_sub_group_size(8)))
void sg_intel_block_rw(global const ushort *us, global const uchar *uc, global const ulong *ul,
                       global ushort *ous, global uchar *ouc, global ulong *oul) {
  uint sg = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
  uint lid = get_sub_group_local_id();
  switch (get_group_id(0) % 3) {
    case 0: {
      ushort2 v = intel_sub_group_block_read_us2(us + sg * 16);
      intel_sub_group_block_write_us2(ous + sg * 16, v.yx + (ushort2)(lid));
      break;
    }
    case 1: {
      uchar2 v = intel_sub_group_block_read_uc2(uc + sg * 16);
      intel_sub_group_block_write_uc2(ouc + sg * 16, v * (uchar2)(3, 5));
      break;
    }
    default: {
      ulong v = intel_sub_group_block_read_ul(ul + sg * 16);
      ulong w = intel_sub_group_block_read_ul(ul + sg * 16 + 8);
      intel_sub_group_block_write_ul(oul + sg * 16, w - v);
      intel_sub_group_block_write_ul(oul + sg * 16 + 8, v ^ w);
      break;
    }
  }
}
