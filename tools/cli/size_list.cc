#include "tools/cli/size_list.h"

#include <fmt/format.h>

#include "spirv/error.h"
#include "tools/cli/text_util.h"

namespace spvsim::tools {

SizeList parseSizeList(std::string_view text, std::string_view option, bool allowZero,
                       uint64_t fill) {
  const auto parts = split(text, ',');
  if (parts.size() > 3)
    throw Error(DiagnosticKind::Usage,
                fmt::format("{} '{}' has {} dimensions; at most 3", option, text, parts.size()));
  SizeList out;
  out.dims = static_cast<uint32_t>(parts.size());
  out.values = {fill, fill, fill};
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!parseUnsigned(parts[i], out.values[i]) || (!allowZero && out.values[i] == 0))
      throw Error(DiagnosticKind::Usage,
                  fmt::format("{} '{}': '{}' is not a {} number", option, text, parts[i],
                              allowZero ? "non-negative" : "positive"));
  }
  return out;
}

}  // namespace spvsim::tools
