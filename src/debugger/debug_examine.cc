#include "src/debugger/debug_examine.h"

#include <fmt/format.h>

#include <cstring>
#include <functional>

#include "src/values/scalar_codec.h"
#include "src/values/text_util.h"

namespace spvsim::debugger {
namespace {

using values::parseUnsigned;
using values::trim;

constexpr uint64_t kWholeLimit = 256;  // `x NAME` shows at most this many elements
constexpr uint64_t kPerRow = 8;

// A stretch of typed elements in host memory.
struct Elements {
  const uint8_t* base = nullptr;
  uint64_t count = 0;
  uint64_t size = 0;
  std::function<std::string(const uint8_t*)> format;
  std::string what;  // "uint, global memory"
};

std::string rows(const Elements& e, const std::string& name, uint64_t first, uint64_t end) {
  std::string out = fmt::format("{}[{}:{}] ({}):\n", name, first, end, e.what);
  for (uint64_t i = first; i < end; i += kPerRow) {
    out += fmt::format("  [{}]", i);
    for (uint64_t k = i; k < end && k < i + kPerRow; ++k)
      out += " " + e.format(e.base + k * e.size);
    out += '\n';
  }
  return out;
}

// gdb's x/NFU: a count N (1..4096), a format F (x hex, d signed, u unsigned, o octal,
// t binary, f float, c character) and a unit U (b, h, w, g: 1, 2, 4, 8 bytes). With
// neither F nor U the memory is shown as the pointer's element type; F alone takes
// 4-byte units (gdb's default w), U alone hex.
struct UnitFormat {
  uint64_t count = 1;
  char format = 'x';
  uint64_t unit = 0;  // 0: the pointee's type
  bool formatGiven = false;
};

UnitFormat parseUnitFormat(std::string_view text) {
  UnitFormat f;
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits && (!parseUnsigned(text.substr(0, digits), f.count) || f.count == 0 || f.count > 4096))
    throw DebugError(fmt::format("x/{}: give a count 1..4096", text));
  bool& formatGiven = f.formatGiven;
  for (char c : text.substr(digits)) {
    if (std::string_view("bhwg").find(c) != std::string_view::npos) {
      f.unit = c == 'b' ? 1 : c == 'h' ? 2 : c == 'w' ? 4 : 8;
    } else if (std::string_view("xduotfc").find(c) != std::string_view::npos) {
      f.format = c;
      formatGiven = true;
    } else {
      throw DebugError(fmt::format(
          "x/{}: '{}' is no format (x d u o t f c) or unit (b h w g); e.g. x/4dw PTR", text, c));
    }
  }
  if (formatGiven && !f.unit) f.unit = f.format == 'c' ? 1 : 4;
  if (f.format == 'f' && f.unit != 4 && f.unit != 8)
    throw DebugError(fmt::format("x/{}: floats are 4 (w) or 8 (g) bytes", text));
  return f;
}

const char* unitName(uint64_t unit) {
  return unit == 1 ? "byte" : unit == 2 ? "halfword" : unit == 4 ? "word" : "giant";
}

std::string formatUnit(const uint8_t* p, const UnitFormat& f) {
  uint64_t bits = 0;
  std::memcpy(&bits, p, f.unit);  // little-endian, as the kernel's memory
  const unsigned shift = 64 - unsigned(f.unit) * 8;
  const int64_t signedValue = shift == 0 ? int64_t(bits) : int64_t(bits << shift) >> shift;
  switch (f.format) {
    case 'd':
      return fmt::format("{}", signedValue);
    case 'u':
      return fmt::format("{}", bits);
    case 'o':
      return fmt::format("0{:o}", bits);
    case 't':
      return fmt::format("{:0{}b}", bits, f.unit * 8);
    case 'c':
      return bits >= 0x20 && bits < 0x7f ? fmt::format("{} '{}'", bits, char(bits))
                                         : fmt::format("{}", bits);
    case 'f': {
      if (f.unit == 4) {
        float v;
        std::memcpy(&v, p, 4);
        return fmt::format("{}", v);
      }
      double v;
      std::memcpy(&v, p, 8);
      return fmt::format("{}", v);
    }
    default:
      // x/Nb alone keeps its two-digit bytes; an explicit x is gdb's 0x form.
      return f.formatGiven ? fmt::format("{:#0{}x}", bits, f.unit * 2 + 2)
                           : fmt::format("{:0{}x}", bits, f.unit * 2);
  }
}

class Examiner {
 public:
  explicit Examiner(DebugSession& session)
      : session_(session),
        module_(session.launch().program->module()),
        entry_(*session.launchState().kernel().entry) {}

  std::string range(std::string_view what) {
    const ElementRange range = parseElementRange(what);
    const Elements e = elementsOf(range.name);
    const auto [first, end] = elementBounds(range, e.count, kWholeLimit);
    std::string out = rows(e, range.name, first, end);
    if (range.whole && end < e.count)
      out += fmt::format("  ... ({} elements; give a range NAME[I:J] for the rest)\n", e.count);
    return out;
  }

  std::string pointer(std::string_view format, std::string_view what) {
    const UnitFormat f = parseUnitFormat(format);
    const uint64_t count = f.count;
    SubGroup& sg = session_.subGroup();
    const ValueReader reader(session_.symbols(), sg);
    const ValueRef ref = parseValueRef(what);
    const LaneValues v = reader.read(ref);
    const spirv::Type& t = module_.type(v.type);
    if (t.kind != spirv::TypeKind::Pointer)
      throw DebugError(
          fmt::format("x/{}: {} is a {}, not a pointer (x NAME[I:J] examines a "
                      "buffer or local memory by name)",
                      format, v.label, v.typeName));
    const uint32_t lane = ref.lane ? *ref.lane : sg.mask.any() ? sg.mask.first() : 0;
    const size_t entry = v.shared ? 0 : lane;
    if (!v.errors[entry].empty()) throw DebugError(v.label + " is unreadable: " + v.errors[entry]);
    const uint64_t p = kernelPointer(sg, v.bytes[entry]);
    const spirv::Type& pointee = module_.type(t.element);
    const uint64_t size = f.unit ? f.unit : std::max<uint64_t>(pointee.size, 1);
    AccessError error = AccessError::Ok;
    // locate(): the debugger's reads are not the kernel's (checkers must not see them).
    const uint8_t* host = sg.locate(p, lane, count * size, false, error);
    if (!host)
      throw DebugError(fmt::format("cannot read {} byte{} at {} as lane {} sees memory: {}",
                                   count * size, count * size == 1 ? "" : "s",
                                   session_.pointerName(p), lane,
                                   error == AccessError::Null ? "null pointer" : "out of bounds"));
    std::string out = fmt::format("{} (lane {}), {} x {}:", session_.pointerName(p), lane, count,
                                  f.unit ? unitName(f.unit) : spirv::typeName(module_, t.element));
    for (uint64_t k = 0; k < count; ++k)
      out += " " +
             (f.unit ? formatUnit(host + k * size, f)
                     : formatValue(module_, t.element, host + k * size, {0, v.isSigned}, namer()));
    return out + '\n';
  }

 private:
  PointerNamer namer() const {
    return [this](uint64_t p) { return session_.pointerName(p); };
  }

  Elements elementsOf(const std::string& name) {
    const auto& params = entry_.signature.params;
    for (size_t i = 0; i < params.size(); ++i)
      if (params[i].name == name || fmt::format("arg{}", i) == name) return argument(i, params[i]);
    return variable(name);
  }

  Elements argument(size_t i, const spirv::ParamSignature& param) {
    const DebugArgument& a = session_.launch().args[i];
    if (a.kind == DebugArgument::Kind::Buffer) {
      Elements e;
      e.base = a.bytes;
      e.count = a.count;
      e.size = a.type.size();
      const values::ElementType type = a.type;
      const bool hex = a.hex;
      e.format = [type, hex](const uint8_t* p) { return values::formatElement(type, p, hex); };
      e.what = fmt::format("{}, {} memory", a.type.name(),
                           param.kind == spirv::ParamKind::ConstantPointer ? "constant" : "global");
      return e;
    }
    if (a.kind != DebugArgument::Kind::Local)
      throw DebugError(
          fmt::format("{} is not memory: it is {}", param.name,
                      a.kind == DebugArgument::Kind::Null ? "a null pointer" : "a value"));
    const std::vector<Region>& local = session_.launchState().memory().local;
    const std::string prefix = fmt::format("argument {} (", i);
    for (const Region& r : local)
      if (r.name.rfind(prefix, 0) == 0)
        return localElements(r, module_.type(entry_.signature.params[i].type).element,
                             styleOf(param.name));
    throw DebugError(fmt::format("{}: no local memory bound", param.name));
  }

  // Signed unless debug info names an unsigned source type for `name`.
  ValueStyle styleOf(const std::string& name) const {
    const SubGroup& sg = session_.subGroup();
    const ValueName* n =
        session_.symbols().findName(name, sg.frames.back().function, sg.code[locationPc(sg)].src);
    return ValueStyle{0, !n || n->typeName.empty() || n->isSigned};
  }

  Elements localElements(const Region& r, spirv::Id type, const ValueStyle& style) {
    GroupRun& g = session_.group();
    if (!g.slot) throw DebugError("the current work-group has finished; its local memory is gone");
    const spirv::Type& t = module_.type(type);
    Elements e;
    e.base = g.slot->workGroup().localArena + r.arenaOffset;
    e.size = std::max<uint64_t>(t.size, 1);
    e.count = r.size / e.size;
    e.format = [this, type, style](const uint8_t* p) {
      return formatValue(module_, type, p, style, namer());
    };
    e.what = fmt::format("{}, local memory of work-group ({},{},{})",
                         spirv::typeName(module_, type), g.id[0], g.id[1], g.id[2]);
    return e;
  }

  // A __local (or program-scope) variable by its debug-info name or OpName.
  Elements variable(const std::string& name) {
    const SubGroup& sg = session_.subGroup();
    const Symbols& s = session_.symbols();
    const ValueName* n = s.findName(name, sg.frames.back().function, sg.code[locationPc(sg)].src);
    if (!n)
      throw DebugError(
          fmt::format("no buffer argument, local memory or variable named '{}'", name));
    const ValueSlot* slot = s.kernel().findValue(n->id);
    if (!n->address || !slot)
      throw DebugError(
          fmt::format("'{}' is a value, not memory (print {} shows it; x/N {}[LANE] "
                      "examines where a pointer points)",
                      name, name, name));
    uint64_t p = 0;
    std::memcpy(&p, sg.regs + slot->reg, sizeof p);
    const Space space = pointerSpace(p);
    if (space == Space::Private)
      throw DebugError(
          fmt::format("'{}' is private memory, one copy per lane: print {} shows "
                      "every lane's value",
                      name, name));
    const spirv::Type& pointee = module_.type(module_.type(slot->type).element);
    const spirv::Id element =
        pointee.kind == spirv::TypeKind::Array ? pointee.element : module_.type(slot->type).element;
    const std::vector<Region>& table = session_.launchState().memory().regions(space);
    if (pointerRegion(p) == 0 || pointerRegion(p) >= table.size())
      throw DebugError(fmt::format("'{}' does not point at memory", name));
    const Region& r = table[pointerRegion(p)];
    const ValueStyle style = styleOf(name);
    if (space == Space::Local) return localElements(r, element, style);
    Elements e;
    e.base = r.base;
    e.size = std::max<uint64_t>(module_.type(element).size, 1);
    e.count = r.size / e.size;
    e.format = [this, element, style](const uint8_t* q) {
      return formatValue(module_, element, q, style, namer());
    };
    e.what = fmt::format("{}, {} memory", spirv::typeName(module_, element), spaceName(space));
    return e;
  }

  DebugSession& session_;
  const spirv::Module& module_;
  const spirv::EntryPoint& entry_;
};

}  // namespace

std::string examineText(DebugSession& session, std::string_view format, std::string_view what) {
  what = trim(what);
  if (what.empty())
    throw DebugError("x: give NAME[I:J] (a buffer or local memory) or x/N VALUE (a pointer)");
  Examiner examiner(session);
  return format.empty() ? examiner.range(what) : examiner.pointer(format, what);
}

}  // namespace spvsim::debugger
