#include "runtime/spirv_edit.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <spirv/unified1/spirv.hpp11>
#include <string_view>

#include "spirv/binary.h"
#include "spirv/error.h"
#include "spirv/legacy_atomics.h"
#include "spirv/normalize.h"

namespace spvsim::rt {
namespace {

using spv::Op;

using spirv::kHeaderWords;
constexpr uint32_t kVersion14 = 0x00010400;
constexpr std::string_view kMarkerPrefix = "spvsim:";
constexpr std::string_view kUniformMarker = "spvsim:uniform-work-group-size";

struct Inst {
  size_t at;  // word offset of the instruction
  Op op;
  uint32_t count;  // words, including the first
};

// Every instruction in order (spirv/words.h walks them); false (after visiting a
// prefix) for a malformed stream. `visit` may rewrite words but not resize `w`.
template <class F>
bool forEachInstruction(const std::vector<uint32_t>& w, F&& visit) {
  try {
    spirv::forEachInstruction(w, [&](const spirv::WordInstruction& i) {
      visit(Inst{i.offset, i.op, static_cast<uint32_t>(i.words.size())});
    });
    return true;
  } catch (const Error&) {
    return false;
  }
}

// The literal string starting at word `at` of an instruction ending before `end`, and
// the word after it.
std::string_view literalString(const std::vector<uint32_t>& w, size_t at, size_t end,
                               size_t* next) {
  const char* chars = reinterpret_cast<const char*>(w.data() + at);
  const size_t maxBytes = (end - at) * 4;
  const size_t length = strnlen(chars, maxBytes);
  *next = at + length / 4 + 1;
  return {chars, length};
}

struct ScalarType {
  bool isBool = false;
  uint32_t bits = 0;
  bool isSigned = false;
};

std::string_view binaryKindName(BinaryKind k) {
  switch (k) {
    case BinaryKind::CompiledObject:
      return "compiled-object";
    case BinaryKind::Library:
      return "library";
    case BinaryKind::Executable:
      break;
  }
  return "executable";
}

// This ICD's binary markers; the compile driver's legacy-atomics marker belongs to the
// module and survives binary round trips.
bool isMarker(const std::vector<uint32_t>& w, const Inst& i) {
  if (i.op != Op::OpSourceExtension) return false;
  size_t next = 0;
  const std::string_view text = literalString(w, i.at + 1, i.at + i.count, &next);
  return text.substr(0, kMarkerPrefix.size()) == kMarkerPrefix &&
         text != spirv::kLegacyAtomicsMarker;
}

}  // namespace

std::map<uint32_t, SpecConstantInfo> specConstants(const std::vector<uint32_t>& w) {
  std::map<uint32_t, uint32_t> specIdOf;  // result id -> SpecId
  std::map<uint32_t, ScalarType> types;
  std::map<uint32_t, SpecConstantInfo> out;
  const bool ok = forEachInstruction(w, [&](const Inst& i) {
    const uint32_t* o = w.data() + i.at + 1;
    if (i.op == Op::OpDecorate && i.count >= 4 &&
        o[1] == static_cast<uint32_t>(spv::Decoration::SpecId))
      specIdOf[o[0]] = o[2];
    else if (i.op == Op::OpTypeBool && i.count >= 2)
      types[o[0]] = ScalarType{true, 8, false};
    else if (i.op == Op::OpTypeInt && i.count >= 4)
      types[o[0]] = ScalarType{false, o[1], o[2] != 0};
    else if (i.op == Op::OpTypeFloat && i.count >= 3)
      types[o[0]] = ScalarType{false, o[1], false};
  });
  if (!ok) return {};
  forEachInstruction(w, [&](const Inst& i) {
    if (i.op != Op::OpSpecConstant && i.op != Op::OpSpecConstantTrue &&
        i.op != Op::OpSpecConstantFalse)
      return;
    if (i.count < 3) return;
    const uint32_t type = w[i.at + 1], id = w[i.at + 2];
    auto spec = specIdOf.find(id);
    auto t = types.find(type);
    if (spec == specIdOf.end() || t == types.end()) return;
    out[spec->second] = SpecConstantInfo{id, t->second.isBool ? 1 : t->second.bits / 8,
                                         t->second.isBool, t->second.isSigned};
  });
  return out;
}

std::vector<uint32_t> specialize(std::vector<uint32_t> w,
                                 const std::map<uint32_t, std::vector<uint8_t>>& values) {
  const std::map<uint32_t, SpecConstantInfo> specs = specConstants(w);
  std::map<uint32_t, const std::vector<uint8_t>*> byResult;
  std::map<uint32_t, SpecConstantInfo> infoByResult;
  for (const auto& [specId, bytes] : values) {
    auto it = specs.find(specId);
    if (it == specs.end()) continue;
    byResult[it->second.resultId] = &bytes;
    infoByResult[it->second.resultId] = it->second;
  }
  forEachInstruction(w, [&](const Inst& i) {
    if (i.count < 3) return;
    auto it = byResult.find(w[i.at + 2]);
    if (it == byResult.end()) return;
    const std::vector<uint8_t>& bytes = *it->second;
    const SpecConstantInfo& info = infoByResult[it->first];
    if (info.isBool) {
      const bool value = std::any_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b; });
      const Op op = value ? Op::OpSpecConstantTrue : Op::OpSpecConstantFalse;
      w[i.at] = (w[i.at] & 0xffff0000u) | static_cast<uint32_t>(op);
      return;
    }
    if (i.op != Op::OpSpecConstant) return;
    uint64_t value = 0;
    std::memcpy(&value, bytes.data(), std::min<size_t>(8, bytes.size()));
    if (info.isSigned && bytes.size() < 4) {  // narrow signed literals are sign-extended
      const unsigned shift = 64 - 8 * static_cast<unsigned>(bytes.size());
      value = static_cast<uint64_t>(static_cast<int64_t>(value << shift) >> shift) & 0xffffffffu;
    }
    for (uint32_t k = 3; k < i.count; ++k)
      w[i.at + k] = static_cast<uint32_t>(value >> (32 * (k - 3)));
  });
  return w;
}

std::vector<uint32_t> withVersion(std::vector<uint32_t> w, uint32_t version) {
  if (w.size() < kHeaderWords) return w;
  const uint32_t old = w[1];
  w[1] = version;
  if (old >= kVersion14 || version < kVersion14) return w;
  return spirv::withEntryPointInterfaces(w);  // as 1.4 requires
}

std::vector<uint32_t> withLinkageIfNoEntryPoints(std::vector<uint32_t> w) {
  bool entryPoints = false, linkage = false;
  const uint32_t linkageCap = static_cast<uint32_t>(spv::Capability::Linkage);
  if (!forEachInstruction(w, [&](const Inst& i) {
        entryPoints |= i.op == Op::OpEntryPoint;
        linkage |= i.op == Op::OpCapability && i.count == 2 && w[i.at + 1] == linkageCap;
      }))
    return w;
  if (entryPoints || linkage) return w;
  const uint32_t capability[] = {(2u << 16) | static_cast<uint32_t>(Op::OpCapability), linkageCap};
  w.insert(w.begin() + kHeaderWords, std::begin(capability), std::end(capability));
  return w;
}

BinaryMarkers readMarkers(const std::vector<uint32_t>& w) {
  BinaryMarkers m;
  forEachInstruction(w, [&](const Inst& i) {
    if (!isMarker(w, i)) return;
    size_t next = 0;
    const std::string_view text = literalString(w, i.at + 1, i.at + i.count, &next);
    if (text == kUniformMarker) m.uniformWorkGroups = true;
    for (BinaryKind k : {BinaryKind::CompiledObject, BinaryKind::Library, BinaryKind::Executable})
      if (text == std::string("spvsim:binary-type=") + std::string(binaryKindName(k))) m.kind = k;
  });
  return m;
}

std::vector<uint32_t> withoutMarkers(const std::vector<uint32_t>& w) {
  if (w.size() < kHeaderWords) return w;
  std::vector<uint32_t> out(w.begin(), w.begin() + kHeaderWords);
  const bool ok = forEachInstruction(w, [&](const Inst& i) {
    if (!isMarker(w, i)) out.insert(out.end(), w.begin() + i.at, w.begin() + i.at + i.count);
  });
  return ok ? out : w;
}

std::vector<uint32_t> withMarkers(const std::vector<uint32_t>& words, const BinaryMarkers& m) {
  std::vector<uint32_t> w = withoutMarkers(words);
  std::vector<std::string> texts;
  if (m.kind) texts.push_back("spvsim:binary-type=" + std::string(binaryKindName(*m.kind)));
  if (m.uniformWorkGroups) texts.emplace_back(kUniformMarker);
  size_t insertAt = w.size();
  bool found = false;
  forEachInstruction(w, [&](const Inst& i) {
    if (!found && !spirv::precedesDebugSection(i.op)) {
      insertAt = i.at;
      found = true;
    }
  });
  if (w.size() < kHeaderWords) return w;
  std::vector<uint32_t> markers;
  for (const std::string& t : texts) {
    const std::vector<uint32_t> s = spirv::encodeString(t);
    markers.push_back((static_cast<uint32_t>(s.size() + 1) << 16) |
                      static_cast<uint32_t>(Op::OpSourceExtension));
    markers.insert(markers.end(), s.begin(), s.end());
  }
  w.insert(w.begin() + insertAt, markers.begin(), markers.end());
  return w;
}

}  // namespace spvsim::rt
