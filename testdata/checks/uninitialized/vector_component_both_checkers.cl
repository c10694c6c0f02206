// A 3-component vector written whole (with its padding), one component replaced from
// the input, stored with vstore3: the shape of Oclgrind's bugs/gvn_arbitrary_integers.
kernel void vector_component(global const int* in, global int* out) {
  size_t g = get_global_id(0);
  int3 v = (int3)(0);
  v.z = in[g];
  vstore3(v, g, out);
}
