// Every work-item writes its id to the same element.
kernel void global_write_write_race(global int* data) { data[0] = (int)get_global_id(0); }
