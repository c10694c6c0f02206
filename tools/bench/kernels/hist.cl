// 256-bin histogram with global atomics: each item hashes its value to a bin and
// increments it (many lanes hit the same bin).
__kernel void hist(__global const uint *in, __global uint *bins) {
  uint v = in[get_global_id(0)] * 2654435761u;
  atomic_inc(&bins[v >> 24]);
}
