// Histograms with atomics: the bin of each input value is value % nbins.
//
// histogram_global: every work-item increments its bin in global memory directly; work-
// groups run on different host threads, and the counts are still exact.
// histogram_local: each work-group counts into bins in local memory first (cheap, only
// its own work-items contend), then adds its non-zero bins to the global histogram.
__kernel void histogram_global(__global const uint *data, __global uint *bins, uint nbins) {
  atomic_inc(&bins[data[get_global_id(0)] % nbins]);
}

__kernel void histogram_local(__global const uint *data, __global uint *bins, uint nbins,
                              __local uint *local_bins) {
  for (uint b = get_local_id(0); b < nbins; b += get_local_size(0)) local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&local_bins[data[get_global_id(0)] % nbins]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = get_local_id(0); b < nbins; b += get_local_size(0))
    if (local_bins[b] != 0) atomic_add(&bins[b], local_bins[b]);
}
