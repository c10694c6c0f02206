#include "src/debugger/debug_values.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

#include "src/exec/address32.h"
#include "src/values/text_util.h"

namespace spvsim::debugger {

using values::parseUnsigned;
using values::trim;
namespace {

bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}

// ".x" ".y" ".z" ".w" or ".sN" (N one hexadecimal digit).
std::optional<uint32_t> parseComponent(std::string_view s) {
  if (s.size() == 1) {
    const char* xyzw = "xyzw";
    if (const char* p = std::strchr(xyzw, s[0]); p && *p) return uint32_t(p - xyzw);
    return std::nullopt;
  }
  if (s.size() == 2 && (s[0] == 's' || s[0] == 'S') &&
      std::isxdigit(static_cast<unsigned char>(s[1])))
    return static_cast<uint32_t>(std::strtoul(std::string(1, s[1]).c_str(), nullptr, 16));
  return std::nullopt;
}

}  // namespace

std::string accessProblem(AccessError e) {
  switch (e) {
    case AccessError::Null:
      return "null pointer";
    case AccessError::OutOfBounds:
      return "out of bounds";
    case AccessError::InvalidSpace:
      return "invalid pointer";
    case AccessError::WriteOnly:
      return "write-only memory";
    case AccessError::ReadOnly:
      return "read-only memory";
    default:
      return "unreadable";
  }
}

uint64_t kernelPointer(const SubGroup& sg, const std::vector<uint8_t>& bytes) {
  if (bytes.size() == 4 && addresses32(sg)) {
    uint32_t a = 0;
    std::memcpy(&a, bytes.data(), 4);
    return sg.wg->launch->memory->addresses32->toPointer(a);
  }
  uint64_t p = 0;
  std::memcpy(&p, bytes.data(), std::min<size_t>(bytes.size(), sizeof p));
  return p;
}

uint32_t locationPc(const SubGroup& sg) {
  return sg.state == SubGroupState::AtBarrier ? sg.barrierPc : sg.pc;
}

ElementRange parseElementRange(std::string_view text) {
  text = trim(text);
  ElementRange r;
  r.text = std::string(text);
  const size_t open = text.find('[');
  r.name = std::string(trim(text.substr(0, open)));
  if (r.name.empty()) throw DebugError(fmt::format("'{}': give a NAME", text));
  if (open == std::string_view::npos) return r;
  const size_t close = text.find(']', open);
  if (close == std::string_view::npos || close + 1 != text.size())
    throw DebugError(
        fmt::format("'{}': a range is NAME[I] or NAME[I:J] (elements I to J-1)", text));
  const std::string_view inside = text.substr(open + 1, close - open - 1);
  const size_t colon = inside.find(':');
  uint64_t a = 0, b = 0;
  const bool ok = colon == std::string_view::npos
                      ? parseUnsigned(trim(inside), a) && a < ~0ull && (b = a + 1, true)
                      : parseUnsigned(trim(inside.substr(0, colon)), a) &&
                            parseUnsigned(trim(inside.substr(colon + 1)), b);
  if (!ok || a >= b)
    throw DebugError(fmt::format("'{}': a range is NAME[I] or NAME[I:J] with I < J", text));
  r.whole = false;
  r.first = a;
  r.end = b;
  return r;
}

std::pair<uint64_t, uint64_t> elementBounds(const ElementRange& range, uint64_t count,
                                            uint64_t limit) {
  if (range.whole) return {0, std::min(count, limit)};
  if (range.end > count)
    throw DebugError(fmt::format("'{}' is outside {}: it has {} element{}{}", range.text,
                                 range.name, count, count == 1 ? "" : "s",
                                 count ? fmt::format(" (0-{})", count - 1) : ""));
  return {range.first, range.end};
}

ValueRef parseValueRef(std::string_view text) {
  text = trim(text);
  ValueRef ref;
  size_t pos = 0;
  if (!text.empty() && text[0] == '%') {
    ref.byId = true;
    pos = 1;
    // %NAME as `spvsim dis` names ids ([A-Za-z0-9_]), or %NUMBER.
    while (pos < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[pos])) || text[pos] == '_'))
      ++pos;
    const std::string_view id = text.substr(1, pos - 1);
    uint64_t number = 0;
    if (id.empty() || (std::isdigit(static_cast<unsigned char>(id[0])) &&
                       (!parseUnsigned(id, number) || number == 0 || number > 0xffffffffu)))
      throw DebugError(fmt::format(
          "'{}': an id is % and a number or a name as spvsim dis prints it, e.g. %23, %in", text));
    if (number)
      ref.id = static_cast<spirv::Id>(number);
    else
      ref.idName = std::string(id);
  } else {
    while (pos < text.size() && isNameChar(text[pos])) ++pos;
    ref.name = std::string(text.substr(0, pos));
    if (ref.name.empty() || std::isdigit(static_cast<unsigned char>(ref.name[0])))
      throw DebugError(
          fmt::format("'{}' is not a value: give %ID or a variable NAME, "
                      "optionally [LANE] and .x/.y/.z/.w/.sN",
                      text));
    // "v.y" reads as NAME + component when the part after the last dot is one.
    if (const size_t dot = ref.name.rfind('.');
        dot != std::string::npos && dot + 1 < ref.name.size()) {
      if (auto c = parseComponent(std::string_view(ref.name).substr(dot + 1));
          c && pos == text.size()) {
        ref.component = c;
        ref.name.resize(dot);
      }
    }
  }
  if (pos < text.size() && text[pos] == '[') {
    const size_t close = text.find(']', pos);
    uint64_t lane = 0;
    if (close == std::string_view::npos ||
        !parseUnsigned(trim(text.substr(pos + 1, close - pos - 1)), lane))
      throw DebugError(fmt::format("'{}': a lane is [N] with a number N", text));
    ref.lane = static_cast<uint32_t>(std::min<uint64_t>(lane, 0xffffffffu));
    pos = close + 1;
  }
  if (pos < text.size() && text[pos] == '.' && !ref.component) {
    auto c = parseComponent(text.substr(pos + 1));
    if (!c) throw DebugError(fmt::format("'{}': a component is .x .y .z .w or .s0 to .sf", text));
    ref.component = c;
    pos = text.size();
  }
  if (pos != text.size())
    throw DebugError(fmt::format("'{}': unexpected '{}'", text, text.substr(pos)));
  return ref;
}

uint32_t framePc(const SubGroup& sg, size_t depth) {
  if (depth == 0 || depth >= sg.frames.size()) return locationPc(sg);
  // A caller resumes after its call: the SIMT entry pushed at the call holds that pc.
  const uint32_t base = sg.frames[sg.frames.size() - depth].simtBase;
  return base > 0 && base <= sg.simt.size() ? sg.simt[base - 1].pc - 1 : locationPc(sg);
}

FrameScope frameScope(const SubGroup& sg, size_t depth) {
  if (depth >= std::max<size_t>(sg.frames.size(), 1))
    throw DebugError(fmt::format("no frame {}: the call stack has frames 0-{}", depth,
                                 std::max<size_t>(sg.frames.size(), 1) - 1));
  FrameScope f;
  f.function = sg.frames.empty() ? 0 : sg.frames[sg.frames.size() - 1 - depth].function;
  f.src = sg.code[framePc(sg, depth)].src;
  return f;
}

ValueReader::ValueReader(const Symbols& symbols, SubGroup& subGroup,
                         std::optional<FrameScope> scope)
    : symbols_(symbols), sg_(subGroup), scope_(scope) {}

uint32_t ValueReader::function() const {
  if (scope_) return scope_->function;
  return sg_.frames.empty() ? 0 : sg_.frames.back().function;
}

uint32_t ValueReader::src() const { return scope_ ? scope_->src : sg_.code[locationPc(sg_)].src; }

LaneValues ValueReader::read(const ValueRef& ref) const {
  if (ref.lane && *ref.lane >= sg_.liveLanes)
    throw DebugError(fmt::format("lane {} does not exist: sub-group {} has lanes 0-{}", *ref.lane,
                                 sg_.id, sg_.liveLanes - 1));
  const LoweredKernel& k = symbols_.kernel();
  LaneValues out;
  const ValueSlot* slot = nullptr;
  const ValueName* name = nullptr;
  // Without a source type the label is SPIR-V's sign-less "int", and values print signed.
  out.isSigned = true;
  if (ref.byId) {
    const spirv::Id id = ref.id ? ref.id : k.facts->idNamed(ref.idName);
    if (!id)
      throw DebugError(
          fmt::format("no id is named %{} in the module (spvsim dis shows the names)", ref.idName));
    out.label = k.facts->idName(id);
    slot = k.findValue(id);
    if (!slot)
      throw DebugError(
          fmt::format("{} has no value in kernel {} (not a result, parameter or "
                      "constant that the kernel uses)",
                      out.label, k.entry ? k.entry->name : "?"));
  } else {
    out.label = ref.name;
    name = symbols_.findName(ref.name, function(), src());
    if (!name && symbols_.hasName(ref.name))
      throw DebugError(
          fmt::format("'{}' has no value at this instruction (optimised code binds "
                      "it elsewhere; %ID always works)",
                      ref.name));
    if (!name)
      throw DebugError(
          fmt::format("no variable or value named '{}' (compile with -g for "
                      "variable names; `info locals` lists them; %ID always works)",
                      ref.name));
    slot = k.findValue(name->id);
    if (!slot) throw DebugError(fmt::format("'{}' has no value in this kernel", ref.name));
    if (!name->typeName.empty()) out.isSigned = name->isSigned;
    out.typeName = name->typeName;
    if (name->function != kNoFunction && name->function != function())
      out.note = "variable of function " + symbols_.functionName(name->function);
  }
  if (name && name->address)
    readStorage(*slot, out);
  else
    readRegister(*slot, out);
  if (out.typeName.empty()) out.typeName = spirv::typeName(symbols_.module(), out.type);
  if (ref.component) {
    selectComponent(*ref.component, out);
    out.component = fmt::format(".s{:x}", *ref.component);
  }
  return out;
}

void ValueReader::readRegister(const ValueSlot& slot, LaneValues& out) const {
  out.type = slot.type;
  out.inRegisters = true;
  // A Physical32 pointer register holds the 8-byte encoding: shown as its 32-bit address,
  // as memory holds it (src/exec/address32.h).
  const Address32Map* map = sg_.wg->launch->memory->addresses32;
  const bool address = map && symbols_.module().type(slot.type).kind == spirv::TypeKind::Pointer;
  for (uint32_t l = 0; l < sg_.liveLanes; ++l) {
    const uint8_t* p = sg_.regs + slot.reg + size_t(l) * slot.bytes;
    if (address) {
      uint64_t pointer = 0;
      std::memcpy(&pointer, p, sizeof pointer);
      const uint32_t a = map->toAddress(pointer).value;
      const uint8_t* b = reinterpret_cast<const uint8_t*>(&a);
      out.bytes.emplace_back(b, b + 4);
    } else {
      out.bytes.emplace_back(p, p + slot.bytes);
    }
    out.errors.emplace_back();
    out.homes.push_back(slot.reg + uint64_t(l) * slot.bytes);
  }
}

void ValueReader::readStorage(const ValueSlot& slot, LaneValues& out) const {
  const spirv::Module& m = symbols_.module();
  const spirv::Type& pointer = m.type(slot.type);
  out.type = pointer.element;
  const uint64_t size = m.type(pointer.element).size;
  uint64_t first = 0;
  std::memcpy(&first, sg_.regs + slot.reg, sizeof first);
  const Space space = pointerSpace(first);
  out.storage = spaceName(space);
  out.shared = space != Space::Private;
  const uint32_t entries = out.shared ? 1 : sg_.liveLanes;
  for (uint32_t l = 0; l < entries; ++l) {
    uint64_t p = 0;
    std::memcpy(&p, sg_.regs + slot.reg + size_t(l) * 8, sizeof p);
    AccessError error = AccessError::Ok;
    // locate(), not resolve(): the debugger's reads are not the kernel's accesses
    // (checkers must not see them).
    const uint8_t* host = sg_.locate(p, l, size, false, error);
    out.homes.push_back(p);
    if (host) {
      out.bytes.emplace_back(host, host + size);
      out.errors.emplace_back();
    } else {
      out.bytes.emplace_back();
      out.errors.push_back(accessProblem(error));
    }
  }
}

void ValueReader::selectComponent(uint32_t component, LaneValues& out) const {
  const spirv::Module& m = symbols_.module();
  const spirv::Type& t = m.type(out.type);
  if (t.kind != spirv::TypeKind::Vector)
    throw DebugError(
        fmt::format("{} is a {}, not a vector: it has no components", out.label, out.typeName));
  if (component >= t.count)
    throw DebugError(
        fmt::format("{} has {} components; .s{:x} is not one", out.label, t.count, component));
  const uint64_t size = m.type(t.element).size;
  for (auto& b : out.bytes)
    if (!b.empty())
      b = std::vector<uint8_t>(b.begin() + component * size, b.begin() + (component + 1) * size);
  for (uint64_t& h : out.homes) h += component * size;
  out.type = t.element;
  // "uint4" -> "uint": the element of a vector type name.
  while (!out.typeName.empty() && std::isdigit(static_cast<unsigned char>(out.typeName.back())))
    out.typeName.pop_back();
}

std::string ValueReader::format(const LaneValues& v, std::optional<uint32_t> lane,
                                const ValueStyle& style, const PointerNamer& namer) const {
  ValueStyle s = style;
  s.isSigned = v.isSigned;
  const spirv::Module& m = symbols_.module();
  auto text = [&](size_t entry) {
    return v.errors[entry].empty() ? formatValue(m, v.type, v.bytes[entry].data(), s, namer)
                                   : "<" + v.errors[entry] + ">";
  };
  std::string head = v.label;
  if (lane && !v.shared) head += fmt::format("[{}]", *lane);
  head += v.component;
  std::string what = v.typeName;
  if (v.shared) what += fmt::format(", {} memory, one for the work-group", v.storage);
  if (!v.note.empty()) what += ", " + v.note;
  head += " (" + what + ") =";
  if (v.shared) return head + " " + text(0);
  if (lane)
    return fmt::format("{} {}{}", head, text(*lane),
                       sg_.mask.test(*lane) ? "" : " (inactive lane)");
  for (uint32_t l = 0; l < sg_.liveLanes; ++l)
    head += fmt::format(" [{}]={}", l, sg_.mask.test(l) ? text(l) : "-");
  return head;
}

}  // namespace spvsim::debugger
