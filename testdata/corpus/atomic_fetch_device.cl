// OpenCL 2.0 atomics with explicit order and device scope.
kernel void atomic_fetch_device(global const int *in, global atomic_int *sum,
                                global atomic_uint *maxv, global atomic_long *wide,
                                global atomic_uint *bits) {
  size_t i = get_global_id(0);
  int v = in[i];
  atomic_fetch_add_explicit(sum, v, memory_order_relaxed, memory_scope_device);
  atomic_fetch_max_explicit(maxv, (uint)v, memory_order_relaxed, memory_scope_device);
  atomic_fetch_add_explicit(wide, (long)v * 1048576, memory_order_relaxed, memory_scope_device);
  atomic_fetch_or_explicit(&bits[i % 2], 1u << (v & 31), memory_order_relaxed,
                           memory_scope_device);
}
