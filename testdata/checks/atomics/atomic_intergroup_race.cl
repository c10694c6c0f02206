// Work-group-scope atomics on one counter from two work-groups.
kernel void atomic_intergroup_race(global int* count) {
  atomic_fetch_add_explicit((global atomic_int*)count, 1, memory_order_relaxed,
                            memory_scope_work_group);
}
