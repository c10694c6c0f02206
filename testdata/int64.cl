// 64-bit integer arithmetic: mul, shifts, division, remainder, comparisons,
// ulong wrap-around and negative longs. Eight results per input element.
// (x / k together with x % k makes clang emit `freeze`, which llvm-spirv-15 cannot
// translate: the remainders use other divisors.)
__kernel void int64(__global const long *a, __global const ulong *b, __global long *s,
                    __global ulong *u, long k, ulong m) {
  size_t i = get_global_id(0);
  long x = a[i];
  ulong y = b[i];
  __global long *so = s + 8 * i;
  __global ulong *uo = u + 8 * i;
  so[0] = x / k;
  so[1] = x % (k - 3);
  so[2] = x >> 3;                       // arithmetic shift
  so[3] = (long)((ulong)x << 5);
  so[4] = (x / 1024) * k;
  so[5] = x < k ? -1 : (x == k ? 0 : 1);
  so[6] = (long)(x > 0) - (long)(x < 0);
  so[7] = x ^ (x >> 63);                // branch-free ~|x| for negatives
  uo[0] = y * m;                        // wraps mod 2^64
  uo[1] = y + m;
  uo[2] = y - m;
  uo[3] = y >> 7;                       // logical shift
  uo[4] = y << 13;
  uo[5] = m != 0 ? y / m : 0;
  uo[6] = y % (m | 1);
  uo[7] = (y > m) + 2 * (y >= (ulong)x) + 4 * ((long)y < 0);
}
