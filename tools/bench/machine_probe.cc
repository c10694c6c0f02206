// machine_probe: how far the machine itself lets N host threads scale, on native loops
// shaped like the parts of an interpreter launch, with nothing of spvsim in them. It is
// the yardstick for `run.py --scaling` (tools/bench/README.md): where a native loop that
// keeps a core as busy as spvsim's dispatch loop does (several instructions a cycle,
// L1/L2-resident data) reaches only xK on N threads, no interpreter can reach more.
//
//   machine_probe [N ...]        thread counts, default 1 and every core count
//
// Loops, each a fixed amount of work per thread (weak scaling, speed-up N x t1 / tN),
// except the last (one array split N ways, speed-up t1 / tN):
//   alu-latency     one dependent chain of integer operations: about one instruction
//                   a cycle, so a hyper-thread sibling's load barely slows it
//   alu-throughput  eight independent chains: several instructions a cycle, as the
//                   interpreter's loop retires, so two hyper-threads of one core share it
//   l2-rmw          read-modify-write over a private 256 KiB array (L2-resident)
//   stream-private  the same over a private 8 MiB array
//   stream-shared   the same over one 64 MiB array, split N ways
// Each time is the best of 5, from the release of all N threads to the last one's end.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

uint64_t aluLatency(uint64_t iters) {
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (uint64_t i = 0; i < iters; ++i) x = (x ^ (x << 13)) * 0xff51afd7ed558ccdull + i;
  return x;
}

// Eight independent chains; the empty asm keeps them in scalar registers (no vectors),
// so that the core's scalar issue width is what is measured.
uint64_t aluThroughput(uint64_t iters) {
  uint64_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8;
  for (uint64_t i = 0; i < iters; ++i) {
    a = (a ^ (a >> 7)) + i, b = (b ^ (b >> 9)) + i, c = (c ^ (c >> 5)) + i, d = (d ^ (d >> 3)) + i;
    e = (e ^ (e >> 11)) + i, f = (f ^ (f >> 6)) + i, g = (g ^ (g >> 4)) + i, h = (h ^ (h >> 8)) + i;
    asm volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h));
  }
  return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h;
}

uint64_t readModifyWrite(float* p, size_t n, int passes) {
  float sum = 0;
  for (int r = 0; r < passes; ++r)
    for (size_t i = 0; i < n; ++i) {
      p[i] = p[i] * 0.999f + 1.0f;
      sum += p[i];
    }
  return uint64_t(sum);
}

// Seconds from releasing `threads` threads, each running body(t), to the last one's end.
template <class Body>
double timeThreads(unsigned threads, const Body& body) {
  std::atomic<bool> go{false};
  std::atomic<uint64_t> sink{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      sink += body(t);
    });
  const Clock::time_point start = Clock::now();
  go.store(true, std::memory_order_release);
  for (std::thread& th : pool) th.join();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Loop {
  const char* name;
  bool weak;  // fixed work per thread (else one fixed total)
};

constexpr Loop kLoops[] = {{"alu-latency", true},
                           {"alu-throughput", true},
                           {"l2-rmw", true},
                           {"stream-private", true},
                           {"stream-shared", false}};

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> counts;
  for (int i = 1; i < argc; ++i) {
    const long n = std::strtol(argv[i], nullptr, 10);
    if (n < 1 || n > 4096) {
      std::fprintf(stderr, "machine_probe: thread count '%s' is not in 1..4096\n", argv[i]);
      return 2;
    }
    counts.push_back(unsigned(n));
  }
  if (counts.empty()) counts = {1, std::max(1u, std::thread::hardware_concurrency())};
  const unsigned most = *std::max_element(counts.begin(), counts.end());
  constexpr size_t kL2 = 64 << 10, kPrivate = 2 << 20, kShared = 16 << 20;  // floats
  std::vector<std::vector<float>> l2(most, std::vector<float>(kL2, 1.0f));
  std::vector<std::vector<float>> priv(most, std::vector<float>(kPrivate, 1.0f));
  std::vector<float> shared(kShared, 1.0f);

  std::printf("%u cores; best of 5; xN: throughput against %u thread(s)\n",
              std::thread::hardware_concurrency(), counts[0]);
  for (size_t k = 0; k < std::size(kLoops); ++k) {
    double base = 0;
    for (unsigned n : counts) {
      double best = 1e30;
      for (int rep = 0; rep < 5; ++rep) {
        const double s = timeThreads(n, [&](unsigned t) -> uint64_t {
          switch (k) {
            case 0:
              return aluLatency(100'000'000);
            case 1:
              return aluThroughput(50'000'000);
            case 2:
              return readModifyWrite(l2[t].data(), kL2, 400);
            case 3:
              return readModifyWrite(priv[t].data(), kPrivate, 12);
            default: {
              const size_t part = kShared / n;
              return readModifyWrite(shared.data() + t * part, part, 4);
            }
          }
        });
        best = std::min(best, s);
      }
      if (n == counts[0]) base = best;
      const double speedup = kLoops[k].weak ? double(n) * base / best / counts[0] : base / best;
      std::printf("%-15s %4u threads  %8.4f s  x%.1f\n", kLoops[k].name, n, best, speedup);
    }
  }
  return 0;
}
