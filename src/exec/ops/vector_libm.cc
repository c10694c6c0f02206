// See vector_libm.h. The AVX2 code sits in functions built for AVX2 (SPVSIM_HOST_TARGET)
// so that the rest of the binary runs on any x86-64.
#include "src/exec/ops/vector_libm.h"

#include <math.h>

#include <cstdlib>
#include <iterator>

#include "src/exec/ops/host_cpu.h"

#if defined(__x86_64__)
#include <immintrin.h>

// libmvec's 4-lane AVX2 forms (the x86-64 vector function ABI's "d" variant).
#pragma GCC push_options
#pragma GCC target("avx2,fma")
extern "C" {
__m256d _ZGVdN4v_acos(__m256d);
__m256d _ZGVdN4v_acosh(__m256d);
__m256d _ZGVdN4v_asin(__m256d);
__m256d _ZGVdN4v_asinh(__m256d);
__m256d _ZGVdN4v_atan(__m256d);
__m256d _ZGVdN4v_atanh(__m256d);
__m256d _ZGVdN4v_cbrt(__m256d);
__m256d _ZGVdN4v_cos(__m256d);
__m256d _ZGVdN4v_cosh(__m256d);
__m256d _ZGVdN4v_erf(__m256d);
__m256d _ZGVdN4v_erfc(__m256d);
__m256d _ZGVdN4v_exp(__m256d);
__m256d _ZGVdN4v_exp10(__m256d);
__m256d _ZGVdN4v_exp2(__m256d);
__m256d _ZGVdN4v_expm1(__m256d);
__m256d _ZGVdN4v_log(__m256d);
__m256d _ZGVdN4v_log10(__m256d);
__m256d _ZGVdN4v_log1p(__m256d);
__m256d _ZGVdN4v_log2(__m256d);
__m256d _ZGVdN4v_sin(__m256d);
__m256d _ZGVdN4v_sinh(__m256d);
__m256d _ZGVdN4v_tan(__m256d);
__m256d _ZGVdN4v_tanh(__m256d);
}
#pragma GCC pop_options
#endif

namespace spvsim::ops {
namespace {

#if defined(__x86_64__)
using VectorFn = __m256d (*)(__m256d);
#define SPVSIM_VECTOR(name) &_ZGVdN4v_##name
#else
using VectorFn = void*;
#define SPVSIM_VECTOR(name) nullptr
#endif

struct Entry {
  const char* name;
  ScalarLibmFn scalar;
  VectorFn vector;
  // Arguments below this are raised to it: the float result is +0 at both (a double
  // result under 2^-151), and libmvec stays on its fast path, where it would otherwise
  // call libm for each such lane.
  double lowest;
};

constexpr double kNoLowest = -__builtin_inf();
#define SPVSIM_ENTRY_FROM(name, lowest) \
  { #name, &::name, SPVSIM_VECTOR(name), lowest }
#define SPVSIM_ENTRY(name) SPVSIM_ENTRY_FROM(name, kNoLowest)
// In LibmFunction's order.
constexpr Entry kEntries[] = {
    SPVSIM_ENTRY(acos),
    SPVSIM_ENTRY(acosh),
    SPVSIM_ENTRY(asin),
    SPVSIM_ENTRY(asinh),
    SPVSIM_ENTRY(atan),
    SPVSIM_ENTRY(atanh),
    SPVSIM_ENTRY(cbrt),
    SPVSIM_ENTRY(cos),
    SPVSIM_ENTRY(cosh),
    SPVSIM_ENTRY(erf),
    SPVSIM_ENTRY(erfc),
    SPVSIM_ENTRY_FROM(exp, -110.0),   // e^-110 ~ 1.7e-48
    SPVSIM_ENTRY_FROM(exp10, -48.0),  // 1e-48
    SPVSIM_ENTRY_FROM(exp2, -160.0),  // 2^-160
    SPVSIM_ENTRY(expm1),
    SPVSIM_ENTRY(log),
    SPVSIM_ENTRY(log10),
    SPVSIM_ENTRY(log1p),
    SPVSIM_ENTRY(log2),
    SPVSIM_ENTRY(sin),
    SPVSIM_ENTRY(sinh),
    SPVSIM_ENTRY(tan),
    SPVSIM_ENTRY(tanh),
};
#undef SPVSIM_ENTRY_FROM
#undef SPVSIM_ENTRY
#undef SPVSIM_VECTOR
static_assert(std::size(kEntries) == size_t(LibmFunction::kCount));

const Entry& entry(LibmFunction f) { return kEntries[size_t(f)]; }

#if defined(__x86_64__)
// A bit per lane whose double result v rounds to float as libm's own would
// (vector_libm.h): float normals, 2^-126 <= |v| < 2^128, whose 29 bits that a conversion
// to float drops lie more than kLibmvecGuardUlps from their midpoint 2^28; and results
// below 2^-151 and from 2^129 (infinities included), which round to the zero or the
// infinity of their sign as libm's, a few ulps away, do.
// NaNs compare false throughout.
SPVSIM_HOST_TARGET("avx2,fma")
int roundsAsLibm(__m256d v) {
  constexpr int64_t kGuard = int64_t(kLibmvecGuardUlps), kDropped = (int64_t(1) << 29) - 1;
  const __m256d magnitude = _mm256_andnot_pd(_mm256_set1_pd(-0.0), v);
  const __m256d normal =
      _mm256_and_pd(_mm256_cmp_pd(magnitude, _mm256_set1_pd(0x1p-126), _CMP_GE_OQ),
                    _mm256_cmp_pd(magnitude, _mm256_set1_pd(0x1p128), _CMP_LT_OQ));
  const __m256d tiny = _mm256_cmp_pd(magnitude, _mm256_set1_pd(0x1p-151), _CMP_LT_OQ);
  const __m256d huge = _mm256_cmp_pd(magnitude, _mm256_set1_pd(0x1p129), _CMP_GE_OQ);
  // dropped - 2^28 in [-kGuard, kGuard], shifted to [0, 2 kGuard] (mod 2^29).
  const __m256i shifted = _mm256_and_si256(
      _mm256_add_epi64(_mm256_castpd_si256(v), _mm256_set1_epi64x(kGuard - (int64_t(1) << 28))),
      _mm256_set1_epi64x(kDropped));
  const __m256d nearMidpoint =
      _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x(2 * kGuard + 1), shifted));
  return _mm256_movemask_pd(
      _mm256_or_pd(_mm256_andnot_pd(nearMidpoint, normal), _mm256_or_pd(tiny, huge)));
}

SPVSIM_HOST_TARGET("avx2,fma")
void floatThroughAvx2(const Entry& e, float* r, const float* a, uint32_t count) {
  uint32_t i = 0;
  for (; i + 4 <= count; i += 4) {
    alignas(16) float in[4];
    _mm_store_ps(in, _mm_loadu_ps(a + i));  // kept: r may be a
    // max(lowest, x) keeps a NaN x (MAXPD returns its second operand then).
    const __m256d v =
        e.vector(_mm256_max_pd(_mm256_set1_pd(e.lowest), _mm256_cvtps_pd(_mm_load_ps(in))));
    _mm_storeu_ps(r + i, _mm256_cvtpd_ps(v));
    const int usable = roundsAsLibm(v);
    if (usable != 0xF)
      for (int k = 0; k < 4; ++k)
        if (!(usable >> k & 1)) r[i + k] = float(e.scalar(double(in[k])));
  }
  for (; i < count; ++i) r[i] = float(e.scalar(double(a[i])));
}

SPVSIM_HOST_TARGET("avx2,fma")
void doublesThroughAvx2(const Entry& e, double* r, const double* a, uint32_t count) {
  uint32_t i = 0;
  for (; i + 4 <= count; i += 4) _mm256_storeu_pd(r + i, e.vector(_mm256_loadu_pd(a + i)));
  for (; i < count; ++i) r[i] = e.scalar(a[i]);
}
#endif

}  // namespace

bool hostHasLibmvec() { return hostHasAvx2Fma(); }

void floatThroughLibmvec(LibmFunction f, float* r, const float* a, uint32_t count) {
#if defined(__x86_64__)
  floatThroughAvx2(entry(f), r, a, count);
#else
  std::abort();  // hostHasLibmvec() is false
#endif
}

void libmvecDoubles(LibmFunction f, double* r, const double* a, uint32_t count) {
#if defined(__x86_64__)
  doublesThroughAvx2(entry(f), r, a, count);
#else
  std::abort();
#endif
}

ScalarLibmFn scalarLibm(LibmFunction f) { return entry(f).scalar; }
const char* libmName(LibmFunction f) { return entry(f).name; }

}  // namespace spvsim::ops
