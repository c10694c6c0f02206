// Message passing under `--memory-model relaxed` (README, "Relaxed memory model"): work-items
// 0..15 (sub-group 0 at the default size 16) write data[i] = 42, then raise flag[i];
// work-items 16..31 read flag[i], then data[i], and record flag * 100 + data.
// 142: the flag and the data; 42: the data before the flag was seen; 0: neither;
// 100: the flag, and stale data.
//
// mp_relaxed: relaxed atomics order nothing, so 100 is allowed, and some seeds show it.
// mp_release_acquire: the release store and the acquire load synchronise (both at
// work-group scope, both work-items in the work-group), so 100 never appears.

__kernel void mp_relaxed(__global atomic_int* data, __global atomic_int* flag,
                         __global int* seen) {
  uint lid = get_local_id(0);
  if (lid < 16) {
    atomic_store_explicit(&data[lid], 42, memory_order_relaxed, memory_scope_work_group);
    atomic_store_explicit(&flag[lid], 1, memory_order_relaxed, memory_scope_work_group);
  } else {
    uint i = lid - 16;
    int f = atomic_load_explicit(&flag[i], memory_order_relaxed, memory_scope_work_group);
    int d = atomic_load_explicit(&data[i], memory_order_relaxed, memory_scope_work_group);
    seen[i] = f * 100 + d;
  }
}

__kernel void mp_release_acquire(__global atomic_int* data, __global atomic_int* flag,
                                 __global int* seen) {
  uint lid = get_local_id(0);
  if (lid < 16) {
    atomic_store_explicit(&data[lid], 42, memory_order_relaxed, memory_scope_work_group);
    atomic_store_explicit(&flag[lid], 1, memory_order_release, memory_scope_work_group);
  } else {
    uint i = lid - 16;
    int f = atomic_load_explicit(&flag[i], memory_order_acquire, memory_scope_work_group);
    int d = atomic_load_explicit(&data[i], memory_order_relaxed, memory_scope_work_group);
    seen[i] = f * 100 + d;
  }
}
