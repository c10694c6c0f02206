// Ballots of different predicates per work-group and what cl_khr_subgroup_ballot computes
// from them.
kernel void sg_ballot_switch(global const int *in, global uint *out) {
  size_t i = get_global_id(0);
  int v = in[i];
  uint r;
  switch (get_group_id(0) % 3) {
    case 0: {
      uint4 b = sub_group_ballot(v > 0);
      r = sub_group_ballot_bit_count(b) + 1000 * sub_group_ballot_inclusive_scan(b);
      break;
    }
    case 1: {
      uint4 b = sub_group_ballot(v & 1);
      r = sub_group_ballot_find_lsb(b) + 100 * sub_group_ballot_exclusive_scan(b) +
          10000 * sub_group_ballot_bit_extract(b, 5);
      break;
    }
    default: {
      uint4 b = sub_group_ballot(v < 10);
      r = sub_group_ballot_find_msb(b) + 100 * b.x;
      break;
    }
  }
  out[i] = r;
}
