// Reconvergence corpus, program 0 (issue 37): ipdom is not maximal reconvergence for
// structured code. The inner if's arm breaks, so the immediate post-dominator of the
// OUTER if is for.end, not the outer if's end: under `--reconvergence ipdom` (the
// default) the odd lanes that stay (1, 5) and the even lanes (0, 2, 4, 6) run ballot 1
// apart in both iterations, masks 0x22 and 0x55 (85), where SPV_KHR_maximal_reconvergence
// runs them together at the outer if's end, 0x77 (119). At -O2 clang folds the two ifs
// into one branch and ipdom gives 0x77: the same kernel's ballots differ between -O0 and
// -O2. Records are (ballot id, loop iteration + 1, mask) per lane, 3 slots of 3 words.
//   spvsim run testdata/reconvergence/nested_break.cl --kernel nested_break --global 8 \
//     --local 8 --sub-group-size 8 --build-options -O0 --arg 'buffer:uint[8]=zero' \
//     --arg 'buffer:uint[72]=zero' --arg 'buffer:uint[8]=zero' --dump
// -O0, ipdom (program.py's model; run_reconvergence.py checks it as program 0):
//   arg1 uint[72] = 1 1 85 1 2 85 2 0 255 1 1 34 1 2 34 2 0 255 1 1 85 1 2 85 2 0 255
//                   2 0 255 0 0 0 0 0 0 (lanes 4..7 repeat lanes 0..3)
//   arg2 uint[8] = 3 3 3 1 3 3 3 1
// The kernel below is program.py's kernel_source(NESTED_BREAK); the test checks they agree.
kernel void nested_break(global const uint *in, global uint *out, global uint *cnt) {
  uint lane = get_sub_group_local_id();
  uint v = in[lane];
  uint n = 0u;
  for (uint i0 = 0u; i0 < 2u; i0++) {
    if (((lane >> 0u) & 1u) != 0u) {
      if (((lane >> 1u) & 1u) != 0u) {
        break;
      }
    }
    { uint m = sub_group_ballot(1).x; uint o = (lane * 3u + n) * 3u; out[o] = 1u; out[o + 1u] = ((i0 + 1u) << 0u); out[o + 2u] = m; n++; }
  }
  { uint m = sub_group_ballot(1).x; uint o = (lane * 3u + n) * 3u; out[o] = 2u; out[o + 1u] = 0u; out[o + 2u] = m; n++; }
  cnt[lane] = n;
}
