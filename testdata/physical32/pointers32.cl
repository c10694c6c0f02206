// OpenCL C for a 32-bit device: run_physical32.py compiles it with clang-15 -target spir
// (Physical32) at -O0 and -O2. Pointers and size_t are 4 bytes.

typedef struct { global int* p; int n; } Holder;

// A pointer kept in a private struct; sizes; pointer differences as integers; %p.
kernel void holder(global int* a, global uint* out, global uint* dist) {
  size_t i = get_global_id(0);
  Holder h;
  h.p = a;
  h.n = 3;
  global int* q = h.p + i;
  out[i] = *q * h.n + sizeof(size_t) * 100 + sizeof(global int*) * 1000 + sizeof(Holder) * 10000;
  dist[i] = (uint)((uintptr_t)q - (uintptr_t)a);
  if (i == 0) printf("%p %p\n", a, q);
}

typedef struct node { global struct node* next; int value; } Node;

// A linked list whose links are 32-bit addresses in global memory, built and walked by one
// work-group: sums[i] = the values from node i to the end; info = sizes and the address.
kernel void linked_list(global Node* nodes, global int* sums, global uint* info) {
  size_t i = get_global_id(0), n = get_global_size(0);
  nodes[i].value = (int)i * 10;
  nodes[i].next = i + 1 < n ? &nodes[i + 1] : 0;
  barrier(CLK_GLOBAL_MEM_FENCE);
  int s = 0;
  for (global Node* p = &nodes[i]; p; p = p->next) s += p->value;
  sums[i] = s;
  if (i == 0) {
    info[0] = sizeof(Node);
    info[1] = (uint)(uintptr_t)nodes;
  }
}

// An array of local pointers in private memory, chosen by the lane.
kernel void local_pointers(global int* out, local int* scratch) {
  local int* ptrs[2];
  local int buf[64];
  size_t l = get_local_id(0);
  ptrs[0] = scratch;
  ptrs[1] = buf;
  ptrs[l & 1][l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = ptrs[l & 1][l] + (int)((uintptr_t)&ptrs[1][l] - (uintptr_t)buf);
}

kernel void vectors(global const float* in, global float* out) {
  size_t i = get_global_id(0);
  vstore4(vload4(i, in) * 2.0f, i, out);
}

kernel void atomics(global uint* counter, global uint* hist, local uint* lh) {
  size_t l = get_local_id(0);
  if (l < 4) lh[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(counter);
  atomic_add(&lh[l & 3], (uint)l);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 4) atomic_add(&hist[l], lh[l]);
}

kernel void subgroups(global uint* out) {
  size_t x = get_global_id(0);
  out[x] = sub_group_reduce_add((uint)x) + 1000 * get_sub_group_local_id() +
           100000 * get_sub_group_id();
}

kernel void async_copy(global const int* src, global int* dst, local int* tile) {
  size_t n = get_local_size(0);
  event_t e = async_work_group_copy(tile, src + get_group_id(0) * n, n, 0);
  wait_group_events(1, &e);
  dst[get_global_id(0)] = tile[n - 1 - get_local_id(0)];
}

// Undefined behaviour through 32-bit integers, each reported.
kernel void past_the_end(global int* a, global int* out) {
  size_t i = get_global_id(0);
  out[i] = *(global int*)((uintptr_t)a + 4 * (i + 8));
}

kernel void no_object(global int* out) { out[0] = *(global int*)(uintptr_t)0x7fff0000u; }

kernel void null_page(global int* out) { out[0] = *(global int*)(uintptr_t)16u; }

// 64 MiB past `a`: beyond its guard, so its integer names no object any more.
kernel void far_pointer(global int* a, global uint* out) {
  out[0] = (uint)(uintptr_t)(a + 0x1000000);
}
