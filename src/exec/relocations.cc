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

uint64_t relocatedPointer(const spirv::ModuleFacts& facts, const spirv::Constant& c,
                          const spirv::Relocation& r,
                          const std::function<std::optional<uint64_t>(spirv::Id)>& pointerOf) {
  std::optional<uint64_t> p = pointerOf(r.variable);
  if (!p)
    throw Error(DiagnosticKind::Unsupported,
                fmt::format("unsupported: {} holds the address of {}, which is not a "
                            "program-scope global or constant variable",
                            facts.idName(c.id), facts.module().nameOf(r.variable)));
  // The offset is an int64 byte offset within the variable (spirv/spec_constant_op.cc).
  return offsetPointer(*p, clampDelta(int64_t(r.offset)));
}

std::vector<uint8_t> resolvedBytes(
    const spirv::ModuleFacts& facts, const spirv::Constant& c,
    const std::function<std::optional<uint64_t>(spirv::Id)>& pointerOf,
    const Address32Map* addresses32) {
  std::vector<uint8_t> bytes = c.bytes;
  for (const spirv::Relocation& r : c.relocations) {
    const uint64_t value = relocatedPointer(facts, c, r, pointerOf);
    if (!addresses32) {
      if (r.at + 8 <= bytes.size()) std::memcpy(bytes.data() + r.at, &value, 8);
      continue;
    }
    const Address32Map::Address a = addresses32->toAddress(value);
    if (a.status != Address32Map::Status::Exact)
      throw Error(DiagnosticKind::Unsupported,
                  fmt::format("unsupported: {} holds the address of {} (+{} bytes), which has "
                              "no 32-bit address",
                              facts.idName(c.id), facts.module().nameOf(r.variable), r.offset));
    if (r.at + 4 <= bytes.size()) std::memcpy(bytes.data() + r.at, &a.value, 4);
  }
  return bytes;
}

Address32Map programVariableAddresses32(const spirv::Module& module) {
  std::vector<Region> globals(1), constants(1);
  for (const auto& v : module.globalVariables) {
    const bool global = v.storage == spv::StorageClass::CrossWorkgroup;
    if (!global && v.storage != spv::StorageClass::UniformConstant) continue;
    Region r;
    r.size = module.type(module.type(v.type).element).size;
    (global ? globals : constants).push_back(r);
  }
  Address32Map map;
  map.place(Space::Global, globals);
  map.place(Space::Constant, constants);
  return map;
}

}  // namespace spvsim
