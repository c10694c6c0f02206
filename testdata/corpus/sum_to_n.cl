// Triangular numbers and sums of squares the naive way. At -O2 LLVM replaces both loops by
// closed forms computed in wider integers (i33/i34/i65), which SPIR-V has no type for.
kernel void sum_to_n(global const uint *n, global uint *sums, global uint *squares) {
  uint i = get_global_id(0);
  uint s = 0, q = 0;
  for (uint k = 0; k < n[i]; ++k)
    s += k;
  for (uint k = 0; k < n[i]; ++k)
    q += k * k;
  sums[i] = s;
  squares[i] = q;
}
