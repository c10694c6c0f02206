// Examples for `spvsim run --check-races` (README "Memory model").
//
// tree_sum: a work-group sum in local memory. With sync != 0 every step is separated by
// a work-group barrier and the kernel is race-free; with sync == 0 the steps race (and
// the result depends on the schedule), which the checker reports as data-race.
__kernel void tree_sum(__global const int *in, __global int *out, __local int *tile,
                       int sync) {
  int l = get_local_id(0), n = get_local_size(0);
  tile[l] = in[get_global_id(0)];
  for (int stride = n / 2; stride > 0; stride /= 2) {
    if (sync) barrier(CLK_LOCAL_MEM_FENCE);
    if (l < stride) tile[l] += tile[l + stride];
  }
  if (l == 0) out[get_group_id(0)] = tile[0];
}

// Message passing from work-item 0 to the last work-item of the NDRange through a flag
// with release/acquire semantics of work-group scope: correct inside one work-group,
// insufficient-scope when the two work-items are in different work-groups.
__kernel void publish(__global int *data, __global atomic_int *flag, __global int *out) {
  size_t id = get_global_id(0), last = get_global_size(0) - 1;
  if (id == 0) {
    data[0] = 42;
    atomic_store_explicit(flag, 1, memory_order_release, memory_scope_work_group);
  } else if (id == last) {
    out[0] = atomic_load_explicit(flag, memory_order_acquire, memory_scope_work_group)
                 ? data[0] : -1;
  }
}

// A barrier only half of the work-group reaches: barrier-divergence (no checker needed).
__kernel void half_barrier(__global int *out) {
  int l = get_local_id(0);
  if (l < get_local_size(0) / 2) barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = l;
}
