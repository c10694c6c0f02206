// Atomics in a loop: every work-item adds j + 1 to bins (7 i + j) mod nbins for j < k.
kernel void atomic_loop(global uint *bins, uint nbins, uint k) {
  uint i = get_global_id(0);
  for (uint j = 0; j < k; ++j)
    atomic_add(&bins[(7 * i + j) % nbins], j + 1);
}
