// A nested padded struct whose inner member is never assigned, copied from private to
// global memory.
typedef struct { char tag; int weight; } Leaf;
typedef struct { short id; Leaf leaf; char flag; } Node;

kernel void uninitialized_padded_nested_struct_memcpy(global Node* out, global const int* in) {
  Node n;
  n.id = (short)in[0];
  n.leaf.tag = 'q';
  n.flag = 0;
  // n.leaf.weight is never assigned
  out[get_global_id(0)] = n;
}
