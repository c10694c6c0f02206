// Broadcasts from different constant lanes in the two arms of a uniform if (the condition
// depends only on the work-group), and a non-uniform broadcast likewise.
kernel void sg_broadcast_if(global const float *in, global float *out, global uint *nu) {
  size_t i = get_global_id(0);
  float v = in[i];
  uint u = (uint)i * 7u;
  float r;
  uint s;
  if (get_group_id(0) & 1) {
    r = sub_group_broadcast(v, 1);
    s = sub_group_non_uniform_broadcast(u, 6);
  } else {
    r = sub_group_broadcast(v, 3);
    s = sub_group_non_uniform_broadcast(u, 2);
  }
  out[i] = r + v;
  nu[i] = s;
}
