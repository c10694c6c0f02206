// The input buffer is created without initial contents (.sim noinit): every work-item
// copies its first element to the output.
kernel void uninitialized_global_buffer(global const float* in, global float* out) {
  out[get_global_id(0)] = *in;
}
