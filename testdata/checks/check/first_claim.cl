// Every work-item tries to claim each of `slots` slots with a compare-exchange from -1:
// the first to arrive owns the slot. Race-free (only atomics touch `owner`), but which
// work-item arrives first is up to the scheduler: the result depends on the schedule.
kernel void first_claim(global int* owner, int slots) {
  for (int k = 0; k < slots; ++k)
    atomic_cmpxchg(&owner[k], -1, (int)get_global_id(0));
}
