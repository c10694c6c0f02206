#include "src/exec/relocations.h"

#include <fmt/core.h>

#include <cstring>

#include "spirv/error.h"
#include "src/exec/memory.h"

namespace spvsim {

std::optional<uint64_t> programVariablePointer(const spirv::Module& module, spirv::Id variable) {
  uint64_t globals = 0, constants = 0;
  for (const auto& v : module.globalVariables) {
    const bool global = v.storage == spv::StorageClass::CrossWorkgroup;
    const bool constant = v.storage == spv::StorageClass::UniformConstant;
    if (global) ++globals;
    if (constant) ++constants;
    if (v.id != variable) continue;
    if (global) return makePointer(Space::Global, globals, 0);
    if (constant) return makePointer(Space::Constant, constants, 0);
    return std::nullopt;
  }
  return std::nullopt;
}

std::vector<uint8_t> resolvedBytes(
    const spirv::ModuleFacts& facts, const spirv::Constant& c,
    const std::function<std::optional<uint64_t>(spirv::Id)>& pointerOf) {
  std::vector<uint8_t> bytes = c.bytes;
  for (const spirv::Relocation& r : c.relocations) {
    std::optional<uint64_t> p = pointerOf(r.variable);
    if (!p)
      throw Error(DiagnosticKind::Unsupported,
                  fmt::format("unsupported: {} holds the address of {}, which is not a "
                              "program-scope global or constant variable",
                              facts.idName(c.id), facts.module().nameOf(r.variable)));
    // The offset is an int64 byte offset within the variable (spirv/spec_constant_op.cc).
    const uint64_t value = offsetPointer(*p, clampDelta(int64_t(r.offset)));
    if (r.at + 8 <= bytes.size()) std::memcpy(bytes.data() + r.at, &value, 8);
  }
  return bytes;
}

}  // namespace spvsim
