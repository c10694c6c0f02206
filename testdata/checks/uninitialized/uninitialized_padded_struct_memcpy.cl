// A padded struct built with an initializer whose middle member is read from local
// memory nobody wrote, copied whole to global memory.
typedef struct { char a; int b; char c; } Padded;  // padding after a and after c

kernel void uninitialized_padded_struct_memcpy(local int* scratch, global Padded* out) {
  Padded p = {3, *scratch, 4};
  *out = p;
}
