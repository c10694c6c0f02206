// A program-scope variable that each launch changes: restart must put it back.
global int total = 5;

kernel void bump(global int *out) {
  total += 1;
  out[0] = total;
}
