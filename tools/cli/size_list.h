// X[,Y[,Z]] lists of --global, --local and --global-offset.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace spvsim::tools {

struct SizeList {
  uint32_t dims = 1;
  std::array<uint64_t, 3> values{1, 1, 1};  // dimensions past `dims` stay at `fill`
};

// Parses 1 to 3 comma-separated unsigned numbers. Dimensions that are not given are
// `fill` (1 for sizes, 0 for offsets). With allowZero false, 0 is an error. Throws
// Error(DiagnosticKind::Usage) naming `option`.
SizeList parseSizeList(std::string_view text, std::string_view option, bool allowZero,
                       uint64_t fill = 1);

}  // namespace spvsim::tools
