// Scalars of debugger expressions: their types, loading them from a value's bytes and
// storing computed ones.
#include <fmt/format.h>

#include <cstring>

#include "src/debugger/debug_expr_node.h"

namespace spvsim::debugger {

Arith arithOf(const ExprValue& x, const spirv::Module& m) {
  if (x.v.type == 0) return x.arith;
  const spirv::Type* t = m.findType(x.v.type);
  if (!t) return {};
  switch (t->kind) {
    case spirv::TypeKind::Int:
      return {Arith::Kind::Int, t->width, x.v.isSigned};
    case spirv::TypeKind::Bool:
      return {Arith::Kind::Int, 32, true};  // C: a bool promotes to int
    case spirv::TypeKind::Float:
      return {Arith::Kind::Float, t->width, true};
    default:
      return {};
  }
}

Arith promote(Arith a) {
  if (a.kind == Arith::Kind::Int && a.width < 32) return {Arith::Kind::Int, 32, true};
  if (a.kind == Arith::Kind::Float && a.width < 32) return {Arith::Kind::Float, 32, true};
  return a;
}

std::string arithName(const Arith& a) {
  if (a.kind == Arith::Kind::Float)
    return a.width == 64 ? "double" : a.width == 16 ? "half" : "float";
  const char* base = a.width == 8    ? "char"
                     : a.width == 16 ? "short"
                     : a.width == 64 ? "long"
                                     : "int";
  return (a.isSigned ? "" : "u") + std::string(base);
}

__int128 wrap(__int128 v, const Arith& a) {
  if (a.width >= 128) return v;
  const unsigned __int128 mask = (static_cast<unsigned __int128>(1) << a.width) - 1;
  unsigned __int128 bits = static_cast<unsigned __int128>(v) & mask;
  if (a.isSigned && (bits >> (a.width - 1)) & 1) bits |= ~mask;
  return static_cast<__int128>(bits);
}

Num loadNum(const ExprValue& x, size_t entry, const spirv::Module& m) {
  if (!x.v.errors[entry].empty()) throw DebugError(x.v.errors[entry]);
  const Arith a = arithOf(x, m);
  const std::vector<uint8_t>& b = x.v.bytes[entry];
  Num n;
  if (a.kind == Arith::Kind::Float) {
    n.isFloat = true;
    if (a.width == 64) {
      double d;
      std::memcpy(&d, b.data(), 8);
      n.f = d;
    } else if (a.width == 32) {
      float f;
      std::memcpy(&f, b.data(), 4);
      n.f = f;
    } else {
      _Float16 h;
      std::memcpy(&h, b.data(), 2);
      n.f = static_cast<double>(h);
    }
    return n;
  }
  if (x.v.type != 0 && m.type(x.v.type).kind == spirv::TypeKind::Bool) {
    n.i = b.at(0) & 1;
    return n;
  }
  uint64_t bits = 0;
  std::memcpy(&bits, b.data(), std::min<size_t>(b.size(), 8));
  n.i = wrap(static_cast<__int128>(bits), a);
  return n;
}

std::vector<uint8_t> storeNum(const Num& n, const Arith& a) {
  std::vector<uint8_t> out(a.width / 8);
  if (a.kind == Arith::Kind::Float) {
    if (a.width == 64) {
      const double d = n.real();
      std::memcpy(out.data(), &d, 8);
    } else if (a.width == 32) {
      const float f = static_cast<float>(n.real());
      std::memcpy(out.data(), &f, 4);
    } else {
      const _Float16 h = static_cast<_Float16>(n.real());
      std::memcpy(out.data(), &h, 2);
    }
    return out;
  }
  const uint64_t bits = static_cast<uint64_t>(n.i);
  std::memcpy(out.data(), &bits, out.size());
  return out;
}

}  // namespace spvsim::debugger
