#include "src/exec/memory_limit.h"

#include <fmt/core.h>
#include <unistd.h>

#include <cctype>

#include "spirv/error.h"

namespace spvsim {

uint64_t defaultMaxMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0) return 1ull << 30;
  return mulBytes(uint64_t(pages), uint64_t(pageSize)) / 2;
}

uint64_t parseByteCount(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0 || text.size() - digits > 1) return 0;
  unsigned shift = 0;
  if (digits < text.size()) {
    const size_t unit =
        std::string_view("KMG").find(char(std::toupper(static_cast<unsigned char>(text.back()))));
    if (unit == std::string_view::npos) return 0;
    shift = 10 * unsigned(unit + 1);
  }
  uint64_t value = 0;
  for (size_t i = 0; i < digits; ++i)
    if (__builtin_mul_overflow(value, 10, &value) ||
        __builtin_add_overflow(value, uint64_t(text[i] - '0'), &value))
      return 0;
  return value <= (UINT64_MAX >> shift) ? value << shift : 0;
}

std::string formatBytes(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  double v = double(bytes) / 1024;
  size_t unit = 0;
  while (v >= 1024 && unit + 1 < std::size(kUnits)) v /= 1024, ++unit;
  // 3 significant digits, but never an exponent (1023.9 MiB is "1024 MiB").
  return v >= 100 ? fmt::format("{:.0f} {}", v, kUnits[unit])
                  : fmt::format("{:.3g} {}", v, kUnits[unit]);
}

void checkMemory(uint64_t bytes, uint64_t limit, const std::string& what) {
  if (bytes <= limit) return;
  const std::string size = bytes == ~uint64_t(0)
                               ? "2^64 bytes or more"
                               : fmt::format("{} bytes ({})", bytes, formatBytes(bytes));
  throw Error(DiagnosticKind::OutOfMemory,
              fmt::format("{} would take {}, more than the memory limit of {} bytes ({}); "
                          "raise the limit with --max-memory (spvsim) or SPVSIM_MAX_MEMORY "
                          "(OpenCL ICD)",
                          what, size, limit, formatBytes(limit)));
}

}  // namespace spvsim
