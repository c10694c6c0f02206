// Histogram in local memory (atomic_inc on local uint), merged into the global one.
kernel void atomic_local_histogram(global const uchar *data, global uint *hist,
                                   local uint *lh) {
  uint lid = get_local_id(0);
  for (uint b = lid; b < 16; b += get_local_size(0))
    lh[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uchar v = data[get_global_id(0)];
  atomic_inc(&lh[v >> 4]);
  atomic_inc(&lh[v & 15]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < 16; b += get_local_size(0))
    atomic_add(&hist[b], lh[b]);
}
