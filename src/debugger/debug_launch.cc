#include "src/debugger/debug_launch.h"

#include <fmt/format.h>

namespace spvsim::debugger {

std::string paramName(const spirv::EntryPoint& entry, size_t index) {
  const std::string& name = entry.params.at(index).name;
  return name.empty() ? fmt::format("arg{}", index) : name;
}

}  // namespace spvsim::debugger
