// Eight comparisons joined by ||. clang -O2's SLP vectoriser makes them an <8 x i1> bitcast
// to i8 compared with zero (which the compile driver rewrites for llvm-spirv-15); the driver
// now turns that vectoriser off, so they stay scalar here (the rewrite: ir_rewrites_test).
kernel void any_equal8(global const int8 *a, global const float *in, global float *out) {
  int i = get_global_id(0);
  int8 v = a[i];
  if (v.s0 == 3 || v.s1 == 3 || v.s2 == 3 || v.s3 == 3 || v.s4 == 3 || v.s5 == 3 ||
      v.s6 == 3 || v.s7 == 3) {
    out[i] = in[i];
    return;
  }
  out[i] = in[i] * 0.5f + in[i + 1];
}
