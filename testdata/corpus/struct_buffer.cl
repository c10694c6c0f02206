// An array of structs with mixed members read from and written to a buffer.
typedef struct {
  float2 pos;
  float2 vel;
  int id;
  uint flags;
} particle;

kernel void struct_buffer(global const particle *in, global particle *out,
                          global float *energy, float dt) {
  size_t i = get_global_id(0);
  particle p = in[i];
  float2 step = p.vel * dt;
  p.pos += step;
  if (p.flags & 1)
    p.vel = -p.vel;
  p.flags = (p.flags >> 1) | ((uint)p.id << 16);
  p.id = -p.id;
  out[i] = p;
  float e = dot(p.vel, p.vel);
  energy[i] = e;
}
