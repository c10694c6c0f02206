// How much host memory a launch or a program may take (LaunchOptions::maxMemory, the
// maxMemory of Program::load). Every large allocation the simulator makes for a kernel
// (private and local arenas, registers, observers' state, program-scope variables) is
// checked against the limit before it is made, so an oversized request is a clear
// `out-of-memory` error instead of std::bad_alloc or the OS killing the process.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace spvsim {

// Half of the host's physical memory (1 GiB when it cannot be determined): the default
// limit, for front ends to show or scale.
uint64_t defaultMaxMemory();

// Size arithmetic that saturates at UINT64_MAX instead of wrapping.
constexpr uint64_t addBytes(uint64_t a, uint64_t b) { return a > ~b ? ~uint64_t(0) : a + b; }
constexpr uint64_t mulBytes(uint64_t a, uint64_t b) {
  return b != 0 && a > ~uint64_t(0) / b ? ~uint64_t(0) : a * b;
}

// The syntax of --max-memory and SPVSIM_MAX_MEMORY: decimal digits and an optional K, M
// or G (either case, powers of 1024). 0 when `text` is malformed, zero, or above 2^64 - 1.
uint64_t parseByteCount(std::string_view text);

// "16 GiB", "1.5 MiB", "100 bytes".
std::string formatBytes(uint64_t bytes);

// Throws Error(DiagnosticKind::OutOfMemory) when `bytes` exceeds `limit`: "WHAT would take N bytes
// (16 GiB), more than the memory limit of M bytes (8 GiB); raise the limit with ...".
void checkMemory(uint64_t bytes, uint64_t limit, const std::string& what);

}  // namespace spvsim
