// intel_sub_group_shuffle_down/up/xor: a 3-tap stencil over rows held by a sub-group,
// with different deltas in the arms of a uniform if.
kernel __attribute__((intel_reqd_sub_group_size(8)))
void sg_intel_shuffle_updown(global const float *in, global float *out, global uint *x) {
  size_t i = get_global_id(0);
  uint sg = get_global_id(0) / 8;
  float cur = in[8 * sg + get_sub_group_local_id() + 8];   /* in has 8 guard elements */
  float prev = in[8 * sg + get_sub_group_local_id()];
  float next = in[8 * sg + get_sub_group_local_id() + 16];
  float r;
  uint u = as_uint(cur);
  if (get_group_id(0) & 1) {
    r = intel_sub_group_shuffle_down(cur, next, 1) + intel_sub_group_shuffle_up(prev, cur, 1);
    x[i] = intel_sub_group_shuffle_xor(u, 3);
  } else {
    r = intel_sub_group_shuffle_down(cur, next, 3) + intel_sub_group_shuffle_up(prev, cur, 2);
    x[i] = intel_sub_group_shuffle_xor(u, 4);
  }
  out[i] = r - cur;
}
