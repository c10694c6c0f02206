// A plain read-modify-write of one counter by every work-item.
kernel void increment(global int* counter) { counter[0] = counter[0] + 1; }
