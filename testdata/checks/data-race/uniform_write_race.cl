// Every work-item writes the same value to one element.
kernel void uniform_write_race(global int* flag) { flag[0] = 1; }
