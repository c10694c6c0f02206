// All-pairs gravitational acceleration (softened) of n bodies: pos[j].w is the mass.
// The new velocity after a step dt is written, float4 per body.
__kernel void nbody(__global const float4 *pos, __global const float4 *vel,
                    __global float4 *out, int n, float dt, float eps2) {
  int i = get_global_id(0);
  float4 p = pos[i], a = (float4)(0.0f);
  for (int j = 0; j < n; ++j) {
    float4 q = pos[j];
    float4 d = (float4)(q.xyz - p.xyz, 0.0f);
    float r2 = d.x * d.x + d.y * d.y + d.z * d.z + eps2;
    float inv = rsqrt(r2);
    a += d * (q.w * inv * inv * inv);
  }
  out[i] = vel[i] + a * dt;
}
