// Polynomial hash: Horner evaluation modulo 2^64 with coefficients in constant memory.
kernel void horner_ulong(constant ulong *coef, int degree, global const ulong *x,
                         global ulong *y) {
  size_t i = get_global_id(0);
  ulong v = x[i], acc = 0;
  for (int k = degree; k >= 0; --k)
    acc = acc * v + coef[k];
  y[i] = acc;
}
