#include "runtime/knobs.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "src/exec/memory_limit.h"
#include "src/exec/program.h"

namespace spvsim::rt {
namespace {

// The unsigned value of environment variable `name` within [lo, hi], or `fallback`.
uint64_t envNumber(const char* name, uint64_t lo, uint64_t hi, uint64_t fallback) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  char* end = nullptr;
  unsigned long long v = std::strtoull(text, &end, 0);
  if (*end != '\0' || v < lo || v > hi) {
    std::fprintf(stderr, "spvsim: ignoring %s=%s (expected an integer in %llu..%llu)\n", name, text,
                 static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi));
    return fallback;
  }
  return v;
}

// The byte count (parseByteCount) in environment variable `name`, or `fallback`.
uint64_t envBytes(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  if (uint64_t bytes = parseByteCount(text)) return bytes;
  std::fprintf(stderr,
               "spvsim: ignoring %s=%s (expected a positive number of bytes, optionally with a "
               "K, M or G suffix)\n",
               name, text);
  return fallback;
}

// SPVSIM_CHECKS: a comma-separated list of checker names.
void readChecks(Knobs& k) {
  const char* text = std::getenv("SPVSIM_CHECKS");
  if (!text) return;
  std::string list = text;
  for (size_t at = 0; at <= list.size();) {
    const size_t end = std::min(list.find(',', at), list.size());
    const std::string word = list.substr(at, end - at);
    if (word == "races")
      k.checkRaces = true;
    else if (word == "uninitialized")
      k.checkUninitialized = true;
    else if (word == "undefined")
      k.checkUndefined = true;
    else if (!word.empty())
      std::fprintf(
          stderr,
          "spvsim: ignoring '%s' in SPVSIM_CHECKS (known: races, uninitialized, undefined)\n",
          word.c_str());
    at = end + 1;
  }
}

// SPVSIM_IMAGE_FORMATS: "conformant" (the default) or "all".
void readImageFormats(Knobs& k) {
  const char* text = std::getenv("SPVSIM_IMAGE_FORMATS");
  if (!text || !*text) return;
  const std::string value = text;
  if (value == "all")
    k.xChannelOrders = true;
  else if (value != "conformant")
    std::fprintf(stderr, "spvsim: ignoring SPVSIM_IMAGE_FORMATS='%s' (known: conformant, all)\n",
                 text);
}

// SPVSIM_RECONVERGENCE: "ipdom" (the default), "random" or "random:SEED".
void readReconvergence(Knobs& k) {
  const char* text = std::getenv("SPVSIM_RECONVERGENCE");
  if (!text || !*text) return;
  const std::string value = text;
  if (value == "ipdom") return;
  if (value == "random") {
    k.reconvergenceSeed = 0;
    return;
  }
  if (value.rfind("random:", 0) == 0) {
    char* end = nullptr;
    const unsigned long long seed = std::strtoull(value.c_str() + 7, &end, 0);
    if (value.size() > 7 && *end == '\0' && value[7] != '-') {
      k.reconvergenceSeed = seed;
      return;
    }
  }
  std::fprintf(stderr,
               "spvsim: ignoring SPVSIM_RECONVERGENCE='%s' (known: ipdom, random, random:SEED)\n",
               text);
}

// SPVSIM_MEMORY_MODEL: "sc" (the default), "relaxed" or "relaxed:SEED".
void readMemoryModel(Knobs& k) {
  const char* text = std::getenv("SPVSIM_MEMORY_MODEL");
  if (!text || !*text) return;
  const std::string value = text;
  if (value == "sc") return;
  if (value == "relaxed") {
    k.relaxedSeed = 0;
    return;
  }
  if (value.rfind("relaxed:", 0) == 0) {
    char* end = nullptr;
    const unsigned long long seed = std::strtoull(value.c_str() + 8, &end, 0);
    if (value.size() > 8 && *end == '\0' && value[8] != '-') {
      k.relaxedSeed = seed;
      return;
    }
  }
  std::fprintf(stderr,
               "spvsim: ignoring SPVSIM_MEMORY_MODEL='%s' (known: sc, relaxed, relaxed:SEED)\n",
               text);
}

// SPVSIM_FORWARD_PROGRESS: "none" (the default), "occupancy" or "occupancy:N" (N >= 1).
void readForwardProgress(Knobs& k) {
  const char* text = std::getenv("SPVSIM_FORWARD_PROGRESS");
  if (!text || !*text) return;
  const std::string value = text;
  if (value == "none") return;
  if (value == "occupancy") {
    k.residentGroups = 0;
    return;
  }
  if (value.rfind("occupancy:", 0) == 0 && value.size() > 10 && std::isdigit(uint8_t(value[10]))) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long n = std::strtoull(value.c_str() + 10, &end, 10);
    if (*end == '\0' && errno == 0 && n >= 1 && n <= (1u << 20)) {
      k.residentGroups = n;
      return;
    }
  }
  std::fprintf(stderr,
               "spvsim: ignoring SPVSIM_FORWARD_PROGRESS='%s' (known: none, occupancy, "
               "occupancy:N with N in 1..1048576)\n",
               text);
}

Knobs readKnobs() {
  Knobs k;
  k.subGroupSize = static_cast<uint32_t>(envNumber("SPVSIM_SUB_GROUP_SIZE", 1, 128, 16));
  k.threads = static_cast<unsigned>(envNumber("SPVSIM_THREADS", 0, 4096, 0));
  k.instructionBudget = envNumber("SPVSIM_INSTRUCTION_BUDGET", 1, ~0ull, 1ull << 30);
  k.maxDeviceEnqueues = envNumber("SPVSIM_MAX_DEVICE_ENQUEUES", 1, ~0ull, kMaxDeviceEnqueues);
  k.maxMemory = envBytes("SPVSIM_MAX_MEMORY", defaultMaxMemory());
  if (const char* d = std::getenv("SPVSIM_DIAGNOSTICS"); d && *d) k.diagnostics = d;
  readChecks(k);
  if (const char* d = std::getenv("SPVSIM_CAPTURE"); d && *d) k.captureDir = d;
  if (const char* f = std::getenv("SPVSIM_CAPTURE_FILTER"); f && *f) k.captureFilter = f;
  k.captureLimit = envNumber("SPVSIM_CAPTURE_LIMIT", 0, ~0ull, ~0ull);
  readImageFormats(k);
  readReconvergence(k);
  readMemoryModel(k);
  readForwardProgress(k);
  return k;
}

}  // namespace

const Knobs& knobs() {
  static const Knobs k = readKnobs();  // immutable once read
  return k;
}

}  // namespace spvsim::rt
