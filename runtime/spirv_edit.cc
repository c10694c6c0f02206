#include "runtime/spirv_edit.h"

#include <algorithm>
#include <cstring>
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
constexpr std::string_view kKindPrefix = "spvsim:binary-type=";
constexpr std::string_view kUniformMarker = "spvsim:uniform-work-group-size";
constexpr BinaryKind kKinds[] = {BinaryKind::CompiledObject, BinaryKind::Library,
                                 BinaryKind::Executable};

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

// The literal string of an OpSourceExtension (up to its nul or its last word).
std::string_view extensionText(const spirv::WordInstruction& i) {
  const char* chars = reinterpret_cast<const char*>(i.words.data() + 1);
  return {chars, strnlen(chars, (i.words.size() - 1) * 4)};
}

// This ICD's binary markers; the compile driver's legacy-atomics marker belongs to the
// module and survives binary round trips.
bool isMarker(const spirv::WordInstruction& i) {
  if (i.op != Op::OpSourceExtension || i.words.size() < 2) return false;
  const std::string_view text = extensionText(i);
  return text.substr(0, kMarkerPrefix.size()) == kMarkerPrefix &&
         text != spirv::kLegacyAtomicsMarker;
}

void noteMarker(std::string_view text, BinaryMarkers& m) {
  if (text == kUniformMarker) m.uniformWorkGroups = true;
  for (BinaryKind k : kKinds)
    if (text.substr(0, kKindPrefix.size()) == kKindPrefix &&
        text.substr(kKindPrefix.size()) == binaryKindName(k))
      m.kind = k;
}

// A module's leading instructions split into the module without markers, the markers,
// and where markers go in it (its first instruction after the debug section's
// predecessors).
struct Split {
  MarkedModule module;
  size_t markerOffset = 0;
};
Split split(const std::vector<uint32_t>& w) {
  std::vector<spirv::WordInstruction> leading;
  try {
    leading = spirv::leadingInstructions(w);
  } catch (const Error&) {
    return {{w, {}}, w.size()};
  }
  Split out;
  std::vector<uint32_t>& words = out.module.words;
  words.assign(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(kHeaderWords));
  bool placed = false;
  for (const spirv::WordInstruction& i : leading) {
    if (!placed && !spirv::precedesDebugSection(i.op)) {
      out.markerOffset = words.size();
      placed = true;
    }
    if (isMarker(i))
      noteMarker(extensionText(i), out.module.markers);
    else
      words.insert(words.end(), i.words.begin(), i.words.end());
  }
  if (!placed) out.markerOffset = words.size();
  const size_t rest =
      leading.empty() ? kHeaderWords : leading.back().offset + leading.back().words.size();
  words.insert(words.end(), w.begin() + static_cast<std::ptrdiff_t>(rest), w.end());
  return out;
}

std::vector<spirv::BinaryInstruction> markerInstructions(const BinaryMarkers& m) {
  std::vector<std::string> texts;
  if (m.kind) texts.push_back(std::string(kKindPrefix) + std::string(binaryKindName(*m.kind)));
  if (m.uniformWorkGroups) texts.emplace_back(kUniformMarker);
  std::vector<spirv::BinaryInstruction> out;
  for (const std::string& t : texts)
    out.push_back(spirv::makeInstruction(Op::OpSourceExtension, 0, 0, spirv::encodeString(t)));
  return out;
}

// The instruction that gives the constant `info` describes the value `bytes`.
spirv::BinaryInstruction specializedInstruction(const SpecConstantInfo& info,
                                                const std::vector<uint8_t>& bytes) {
  if (info.isBool) {
    const bool value = std::any_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b; });
    return spirv::makeInstruction(value ? Op::OpSpecConstantTrue : Op::OpSpecConstantFalse,
                                  info.type, info.resultId, {});
  }
  uint64_t value = 0;
  std::memcpy(&value, bytes.data(), std::min<size_t>(8, bytes.size()));
  if (info.isSigned && bytes.size() < 4) {  // narrow signed literals are sign-extended
    const unsigned shift = 64 - 8 * static_cast<unsigned>(bytes.size());
    value = static_cast<uint64_t>(static_cast<int64_t>(value << shift) >> shift) & 0xffffffffu;
  }
  std::vector<uint32_t> literal(info.bytes > 4 ? 2 : 1);
  for (size_t k = 0; k < literal.size(); ++k) literal[k] = static_cast<uint32_t>(value >> (32 * k));
  return spirv::makeInstruction(Op::OpSpecConstant, info.type, info.resultId, literal);
}

}  // namespace

std::map<uint32_t, SpecConstantInfo> specConstants(const spirv::Module& module) {
  std::map<uint32_t, SpecConstantInfo> out;
  for (const auto& [id, c] : module.constants) {
    if (!c.isSpec || !c.specId || c.index >= module.instructionWordOffsets.size()) continue;
    const spirv::Type* t = module.findType(c.type);
    if (!t || (t->kind != spirv::TypeKind::Bool && t->kind != spirv::TypeKind::Int &&
               t->kind != spirv::TypeKind::Float))
      continue;  // composites have no SpecId of their own
    const bool isBool = t->kind == spirv::TypeKind::Bool;
    out[*c.specId] = SpecConstantInfo{id,
                                      c.type,
                                      module.instructionWordOffsets[c.index],
                                      isBool ? 1 : t->width / 8,
                                      isBool,
                                      t->kind == spirv::TypeKind::Int && t->isSigned};
  }
  return out;
}

std::vector<uint32_t> specialize(std::vector<uint32_t> w,
                                 const std::map<uint32_t, SpecConstantInfo>& specs,
                                 const std::map<uint32_t, std::vector<uint8_t>>& values) {
  for (const auto& [specId, bytes] : values) {
    auto it = specs.find(specId);
    if (it == specs.end()) continue;
    const SpecConstantInfo& info = it->second;
    if (info.offset + 2 >= w.size() || w[info.offset + 2] != info.resultId)
      throw Error(DiagnosticKind::Internal,
                  "specialization constant offsets of another module");  // a caller's bug
    spirv::replaceInstruction(w, info.offset, specializedInstruction(info, bytes));
  }
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
  const uint32_t linkage = static_cast<uint32_t>(spv::Capability::Linkage);
  try {
    for (const spirv::WordInstruction& i : spirv::leadingInstructions(w))
      if (i.op == Op::OpEntryPoint ||
          (i.op == Op::OpCapability && i.words.size() == 2 && i.words[1] == linkage))
        return w;
  } catch (const Error&) {
    return w;  // the loader says what is wrong with it
  }
  spirv::insertInstruction(w, kHeaderWords,
                           spirv::makeInstruction(Op::OpCapability, 0, 0, {linkage}));
  return w;
}

MarkedModule splitMarkers(const std::vector<uint32_t>& w) { return split(w).module; }

BinaryMarkers readMarkers(const std::vector<uint32_t>& w) { return split(w).module.markers; }

std::vector<uint32_t> withoutMarkers(const std::vector<uint32_t>& w) {
  return split(w).module.words;
}

size_t markerWordCount(const BinaryMarkers& m) {
  size_t n = 0;
  for (const spirv::BinaryInstruction& i : markerInstructions(m)) n += i.words.size();
  return n;
}

std::vector<uint32_t> withMarkers(const std::vector<uint32_t>& words, const BinaryMarkers& m) {
  Split s = split(words);
  std::vector<uint32_t>& w = s.module.words;
  if (w.size() < kHeaderWords) return w;
  const std::vector<spirv::BinaryInstruction> markers = markerInstructions(m);
  for (auto it = markers.rbegin(); it != markers.rend(); ++it)
    spirv::insertInstruction(w, s.markerOffset, *it);
  return w;
}

}  // namespace spvsim::rt
