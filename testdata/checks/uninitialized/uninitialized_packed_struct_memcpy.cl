// A packed struct (no padding) whose middle member comes from local memory nobody wrote,
// copied whole to global memory.
typedef struct __attribute__((packed)) { char a; int b; char c; } Packed;

kernel void uninitialized_packed_struct_memcpy(local int* scratch, global Packed* out) {
  Packed p;
  p.a = 1;
  p.b = *scratch;
  p.c = 2;
  *out = p;
}
