// What the debugger does with evaluated expressions: shows them, tests conditions,
// assigns through them (`set var`) and locates them (watchpoints).
#include "src/debugger/debug_expr.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "src/debugger/debug_expr_node.h"
#include "src/values/scalar_codec.h"

namespace spvsim::debugger {
namespace {

using values::Scalar;

std::string formatArith(const Arith& a, const std::vector<uint8_t>& bytes,
                        const ValueStyle& style) {
  if (a.kind == Arith::Kind::Float && style.format != 'x')
    return values::formatScalar(a.width == 64 ? Scalar::Double : Scalar::Float, bytes.data());
  const bool isSigned = style.format == 'd' || (style.format == 0 && a.isSigned);
  const Scalar s = a.width == 64 ? (isSigned ? Scalar::Long : Scalar::ULong)
                                 : (isSigned ? Scalar::Int : Scalar::UInt);
  return values::formatScalar(s, bytes.data(), style.format == 'x');
}

// The lanes whose values are shown: one lane's, the shared entry, or the active lanes.
std::vector<size_t> shownEntries(const ExprValue& x, const SubGroup& sg) {
  if (x.v.shared) return {0};
  std::vector<size_t> out;
  for (uint32_t l = 0; l < sg.liveLanes && l < x.v.bytes.size(); ++l)
    if (sg.mask.test(l)) out.push_back(l);
  return out;
}

// Every lane shown failed, the same way: one message instead of a row of them.
void throwIfAllFailed(const ExprValue& x, const SubGroup& sg) {
  const std::vector<size_t> shown = shownEntries(x, sg);
  if (shown.empty()) return;
  for (size_t e : shown)
    if (x.v.errors[e].empty() || x.v.errors[e] != x.v.errors[shown[0]]) return;
  throw DebugError(x.v.label + ": " + x.v.errors[shown[0]]);
}

bool isScalarType(const spirv::Module& m, spirv::Id type) {
  const spirv::Type* t = m.findType(type);
  return t && (t->kind == spirv::TypeKind::Int || t->kind == spirv::TypeKind::Float ||
               t->kind == spirv::TypeKind::Bool);
}

// `n` as a value of SPIR-V scalar type `type` (C's conversions; a real that does not fit
// an integer type is an error rather than undefined behaviour).
std::vector<uint8_t> convert(const Num& n, const spirv::Type& t, bool isSigned) {
  std::vector<uint8_t> out(t.size);
  if (t.kind == spirv::TypeKind::Bool) {
    out[0] = n.truth();
    return out;
  }
  if (t.kind == spirv::TypeKind::Float) return storeNum(n, {Arith::Kind::Float, t.width, true});
  Num i = n;
  if (n.isFloat) {
    const double lo = isSigned ? -std::ldexp(1.0, t.width - 1) : -1.0;
    const double hi = std::ldexp(1.0, isSigned ? t.width - 1 : t.width);
    if (!std::isfinite(n.f) || !(n.f > lo - 1) || !(n.f < hi))
      throw DebugError(fmt::format("{} does not fit a {}-bit {} integer", n.f, t.width,
                                   isSigned ? "signed" : "unsigned"));
    i.i = static_cast<__int128>(std::trunc(n.f));
  }
  const Arith a{Arith::Kind::Int, t.width, isSigned};
  i.isFloat = false;
  i.i = wrap(i.i, a);
  return storeNum(i, a);
}

}  // namespace

std::string entryText(const ExprValue& x, size_t e, const spirv::Module& m, const ValueStyle& style,
                      const PointerNamer& namer) {
  if (!x.v.errors[e].empty()) return "<" + x.v.errors[e] + ">";
  ValueStyle s = style;
  s.isSigned = x.v.isSigned;
  return x.v.type ? formatValue(m, x.v.type, x.v.bytes[e].data(), s, namer)
                  : formatArith(x.arith, x.v.bytes[e], style);
}

std::string formatExpr(const ExprValue& x, const spirv::Module& m, const SubGroup& sg,
                       const ValueStyle& style, const PointerNamer& namer,
                       std::optional<uint32_t> focus) {
  throwIfAllFailed(x, sg);
  auto text = [&](size_t e) { return entryText(x, e, m, style, namer); };
  std::string what = x.v.typeName;
  const bool memory = !x.v.storage.empty() && x.v.storage != "private";
  if (x.v.shared && !x.lane && memory)
    what += fmt::format(", {} memory, one for the work-group", x.v.storage);
  if (!x.v.note.empty()) what += ", " + x.v.note;
  std::string head = x.v.label + " (" + what + ") =";
  if (x.lane)
    return fmt::format("{} {}{}", head, text(0), sg.mask.test(*x.lane) ? "" : " (inactive lane)");
  if (x.v.shared) return head + " " + text(0);
  if (focus && *focus < sg.liveLanes)
    head += fmt::format(" {} at lane {};", sg.mask.test(*focus) ? text(*focus) : "- (inactive)",
                        *focus);
  for (uint32_t l = 0; l < sg.liveLanes; ++l)
    head += fmt::format(" [{}]={}", l, sg.mask.test(l) ? text(l) : "-");
  return head;
}

LaneMask conditionLanes(const ExprValue& x, const spirv::Module& m, const SubGroup& sg) {
  if (arithOf(x, m).kind == Arith::Kind::None)
    throw DebugError(fmt::format("{} is a {}; a condition is a number (non-zero holds)", x.v.label,
                                 x.v.typeName));
  LaneMask out;
  if (x.lane) {
    try {
      if (loadNum(x, 0, m).truth()) out.set(*x.lane);
    } catch (const DebugError& e) {
      throw DebugError(fmt::format("lane {}: {}", *x.lane, e.what()));
    }
    return out;
  }
  sg.mask.forEach([&](uint32_t l) {
    if (l >= sg.liveLanes) return;
    try {
      if (loadNum(x, entryOf(x, l), m).truth()) out.set(l);
    } catch (const DebugError& e) {
      throw DebugError(fmt::format("lane {}: {}", l, e.what()));
    }
  });
  return out;
}

LaneMask assign(const ExprValue& target, const ExprValue& value, const LaneMask& lanes,
                SubGroup& sg, const spirv::Module& m) {
  if (target.v.homes.empty())
    throw DebugError(fmt::format("{} is not a variable or a memory element: set var writes those",
                                 target.v.label));
  if (!isScalarType(m, target.v.type))
    throw DebugError(
        fmt::format("{} is a {}: set var writes numbers (one component .x or one "
                    "element [I] at a time)",
                    target.v.label, target.v.typeName));
  if (arithOf(value, m).kind == Arith::Kind::None)
    throw DebugError(fmt::format("{} is a {}, not a number", value.v.label, value.v.typeName));
  const spirv::Type& t = m.type(target.v.type);
  LaneMask which;
  if (target.lane)
    which.set(*target.lane);
  else if (target.v.shared)
    which.set(lanes.any() ? lanes.first() : 0);  // one entry: written once
  else
    which = lanes;
  LaneMask written;
  which.forEach([&](uint32_t l) {
    if (l >= sg.liveLanes) return;
    const size_t e = entryOf(target, l);
    if (!target.v.errors[e].empty())
      throw DebugError(
          fmt::format("cannot write {} in lane {}: {}", target.v.label, l, target.v.errors[e]));
    Num n;
    try {
      n = loadNum(value, value.lane ? 0 : entryOf(value, l), m);
    } catch (const DebugError& error) {
      throw DebugError(fmt::format("{} in lane {}: {}", value.v.label, l, error.what()));
    }
    const std::vector<uint8_t> bytes = convert(n, t, target.v.isSigned);
    uint8_t* host = nullptr;
    AccessError error = AccessError::Ok;
    if (target.v.inRegisters)
      host = sg.regs + target.v.homes[e];
    else
      host = sg.locate(target.v.homes[e], target.lane.value_or(l), bytes.size(), true, error);
    if (!host)
      throw DebugError(
          fmt::format("cannot write {} in lane {}: {}", target.v.label, l,
                      error == AccessError::ReadOnly ? "read-only memory" : "outside memory"));
    std::memcpy(host, bytes.data(), bytes.size());
    // A register no longer holds what its defining handler computed: its shape (and any
    // shape derived from it) is no longer known (src/exec/register_shape.h).
    if (target.v.inRegisters) sg.forgetShapes();
    written.set(l);
  });
  return written;
}

ValueHomes locateHomes(const ExprValue& x, SubGroup& sg, const spirv::Module& m) {
  if (x.v.homes.empty() || !x.v.type)
    throw DebugError(
        fmt::format("{} is computed, not a variable or memory: nothing to watch", x.v.label));
  if (x.v.inRegisters && m.type(x.v.type).kind == spirv::TypeKind::Pointer && addresses32(sg))
    throw DebugError(fmt::format(
        "{} is a pointer register of a Physical32 module: watch the memory it points to",
        x.v.label));
  ValueHomes out;
  out.bytes = m.type(x.v.type).size;
  for (size_t e = 0; e < x.v.homes.size(); ++e) {
    if (x.v.inRegisters) {
      out.hosts.push_back(sg.regs + x.v.homes[e]);
      continue;
    }
    AccessError error = AccessError::Ok;
    const uint32_t lane = x.v.shared ? x.lane.value_or(0) : uint32_t(e);
    out.hosts.push_back(sg.locate(x.v.homes[e], lane, out.bytes, false, error));
  }
  return out;
}

}  // namespace spvsim::debugger
