// A struct with padding inside a nested struct, every member written, copied whole from
// private memory to local memory and on to global memory. Padding bytes are never
// written, but they carry no value: copying them is not a use of an undefined value.
typedef struct { char tag; int weight; } Leaf;          // 3 padding bytes after tag
typedef struct { short id; Leaf leaf; char flag; } Node;  // padding after id and flag

kernel void padded_nested_struct_memcpy(local Node* scratch, global Node* out) {
  size_t lid = get_local_id(0);
  Node n;
  n.id = 7;
  n.leaf.tag = 'x';
  n.leaf.weight = 1000;
  n.flag = 1;
  if (lid == 0) *scratch = n;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 3) *out = *scratch;
}
