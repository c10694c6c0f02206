// Stream compaction: each work-item whose input is a multiple of 3 appends it at a slot
// taken from an atomic counter. Which value lands in which slot depends on the schedule;
// the set of values (a multiset: the slots are all written once) does not.
kernel void append_multiples(global const int* in, global int* out, global int* count) {
  int v = in[get_global_id(0)];
  if (v % 3 == 0) out[atomic_inc(count)] = v;
}
