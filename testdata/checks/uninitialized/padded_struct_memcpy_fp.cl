// Work-item 0 fills a padded struct in local memory member by member; after the barrier
// work-item 2 copies it whole to global memory.
typedef struct { char a; long b; short c; } Rec;  // 7 padding bytes after a, 6 after c

kernel void padded_struct_memcpy_fp(local Rec* scratch, global Rec* out) {
  size_t lid = get_local_id(0);
  if (lid == 0) {
    scratch->a = 1;
    scratch->b = 0x0102030405060708L;
    scratch->c = -3;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 2) *out = *scratch;
}
