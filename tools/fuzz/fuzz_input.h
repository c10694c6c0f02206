// Helpers shared by the fuzz targets: reading a fuzz input, and the guards that keep
// known, by-design resource limits (multi-gigabyte buffers that a short input may ask
// for) from drowning out real findings.
#pragma once

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace spvsim::fuzz {

// The input as little-endian 32-bit words; trailing bytes that do not fill a word are
// dropped (as readBinaryFile would refuse them).
inline std::vector<uint32_t> toWords(const uint8_t* data, size_t size) {
  std::vector<uint32_t> words(size / 4);
  if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
  return words;
}

// SPVSIM_FUZZ_VERBOSE=1 prints each refusal and launch (to check that seeds get past the
// parsers).
inline bool verbose() {
  static const bool on = [] {
    const char* v = std::getenv("SPVSIM_FUZZ_VERBOSE");
    return v && *v && std::string_view(v) != "0";
  }();
  return on;
}

inline void refused(const std::exception& e) {
  if (verbose()) std::fprintf(stderr, "refused: %s\n", e.what());
}

// A property the code under test promises: a finding when it does not hold.
#define FUZZ_CHECK(cond, what)                                                               \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s (%s) at %s:%d\n", (what), #cond, __FILE__, \
                   __LINE__);                                                                \
      std::abort();                                                                          \
    }                                                                                        \
  } while (0)

// A new folder in $TMPDIR named PREFIX-XXXXXX, for the files a target's inputs name.
inline std::string makeTempFolder(const char* prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / prefix).string() + "-XXXXXX";
  FUZZ_CHECK(mkdtemp(pattern.data()) != nullptr, "a temporary folder");
  return pattern;
}

// Set SPVSIM_FUZZ_NO_GUARDS=1 to drop the guards below (e.g. to check that a size cap
// added to the parsers makes them unnecessary).
inline bool guardsEnabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("SPVSIM_FUZZ_NO_GUARDS");
    return !(v && *v && std::string_view(v) != "0");
  }();
  return enabled;
}

}  // namespace spvsim::fuzz
