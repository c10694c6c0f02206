// Checks vector_libm.h's premise over every float argument: each of the 2^32 bit
// patterns goes through floatThroughLibmvec and through libm, and the two float results
// must be the same bits. Also reports how far apart libmvec's and libm's double results
// ever are, in double ulps, against the guard.
//
//   bazel run //src/exec:vector_libm_exhaustive [-- FUNCTION...]
//
// Minutes per function on one core; it uses every core. Exits 1 on any difference.
#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <thread>
#include <vector>

#include "src/exec/ops/vector_libm.h"

namespace {

using spvsim::ops::LibmFunction;

constexpr uint64_t kBlock = 1 << 16;

struct Tally {
  uint64_t mismatches = 0;
  uint64_t maxUlps = 0;  // between libmvec's and libm's doubles, where both are finite
  uint32_t firstMismatch = 0;
  // Arguments whose libmvec double rounds to another float than libm's: the guard's cases.
  uint64_t guarded = 0;
  std::vector<uint32_t> guardedExamples;
};

uint64_t ulpsApart(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b) || std::signbit(a) != std::signbit(b)) return 0;
  const int64_t x = std::bit_cast<int64_t>(a), y = std::bit_cast<int64_t>(b);
  return uint64_t(x > y ? x - y : y - x);
}

void checkBlock(LibmFunction f, uint64_t start, Tally& t) {
  static thread_local std::vector<float> in(kBlock), out(kBlock);
  static thread_local std::vector<double> wide(kBlock), raw(kBlock);
  for (uint64_t i = 0; i < kBlock; ++i) {
    in[i] = std::bit_cast<float>(uint32_t(start + i));
    wide[i] = double(in[i]);
  }
  spvsim::ops::floatThroughLibmvec(f, out.data(), in.data(), kBlock);
  spvsim::ops::libmvecDoubles(f, raw.data(), wide.data(), kBlock);
  const auto scalar = spvsim::ops::scalarLibm(f);
  for (uint64_t i = 0; i < kBlock; ++i) {
    const double s = scalar(wide[i]);
    const float expected = float(s);
    if (std::bit_cast<uint32_t>(expected) != std::bit_cast<uint32_t>(out[i])) {
      if (t.mismatches++ == 0) t.firstMismatch = uint32_t(start + i);
    }
    t.maxUlps = std::max(t.maxUlps, ulpsApart(s, raw[i]));
    if (std::bit_cast<uint32_t>(float(raw[i])) != std::bit_cast<uint32_t>(expected) &&
        !std::isnan(s) && t.guarded++ < 4)
      t.guardedExamples.push_back(uint32_t(start + i));
  }
}

bool checkFunction(LibmFunction f) {
  const auto begin = std::chrono::steady_clock::now();
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::atomic<uint64_t> next{0};
  std::vector<Tally> tallies(threads);
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < threads; ++k)
    pool.emplace_back([&, k] {
      for (uint64_t s; (s = next.fetch_add(kBlock)) < (uint64_t(1) << 32);)
        checkBlock(f, s, tallies[k]);
    });
  for (auto& th : pool) th.join();
  Tally all;
  for (const Tally& t : tallies) {
    if (t.mismatches && !all.mismatches) all.firstMismatch = t.firstMismatch;
    all.mismatches += t.mismatches;
    all.maxUlps = std::max(all.maxUlps, t.maxUlps);
    all.guarded += t.guarded;
    for (uint32_t x : t.guardedExamples)
      if (all.guardedExamples.size() < 4) all.guardedExamples.push_back(x);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  std::printf("%-6s mismatches %llu", spvsim::ops::libmName(f), (unsigned long long)all.mismatches);
  if (all.mismatches) std::printf(" (first at bits 0x%08x)", all.firstMismatch);
  std::printf("  libmvec vs libm at most %llu ulps (guard %llu)  %.0f s\n",
              (unsigned long long)all.maxUlps, (unsigned long long)spvsim::ops::kLibmvecGuardUlps,
              seconds);
  std::printf("       libmvec alone would round %llu arguments differently",
              (unsigned long long)all.guarded);
  for (uint32_t x : all.guardedExamples) std::printf(" 0x%08x", x);
  std::printf("\n");
  std::fflush(stdout);
  return all.mismatches == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (!spvsim::ops::hostHasLibmvec()) {
    std::fprintf(stderr, "this CPU has no AVX2 and FMA: libmvec's path is not used here\n");
    return 2;
  }
  bool ok = true, any = false;
  for (size_t k = 0; k < size_t(LibmFunction::kCount); ++k) {
    const auto f = LibmFunction(k);
    bool wanted = argc < 2;
    for (int a = 1; a < argc; ++a) wanted |= std::string_view(argv[a]) == spvsim::ops::libmName(f);
    if (!wanted) continue;
    any = true;
    ok &= checkFunction(f);
  }
  if (!any) {
    std::fprintf(stderr, "no such function; the functions are:");
    for (size_t k = 0; k < size_t(LibmFunction::kCount); ++k)
      std::fprintf(stderr, " %s", spvsim::ops::libmName(LibmFunction(k)));
    std::fprintf(stderr, "\n");
    return 2;
  }
  return ok ? 0 : 1;
}
