// Evaluating debugger expressions per lane (src/debugger/debug_expr.h).
#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "src/debugger/debug_expr.h"
#include "src/debugger/debug_expr_node.h"
#include "src/exec/memory.h"
#include "src/values/element_type.h"

namespace spvsim::debugger {
namespace {

using Kind = ExprNode::Kind;

// ".x" ".y" ".z" ".w" or ".sN" (N one hexadecimal digit).
std::optional<uint32_t> componentIndex(const std::string& s) {
  if (s.size() == 1 && std::strchr("xyzw", s[0]))
    return uint32_t(std::strchr("xyzw", s[0]) - "xyzw");
  if (s.size() == 2 && (s[0] == 's' || s[0] == 'S') &&
      std::isxdigit(static_cast<unsigned char>(s[1])))
    return static_cast<uint32_t>(std::stoul(s.substr(1), nullptr, 16));
  return std::nullopt;
}

// Where a binary result lives: per lane, one value, or one lane's value.
struct Shape {
  bool shared = false;
  std::optional<uint32_t> lane;
};

Shape combine(const ExprValue& a, const ExprValue& b) {
  if (a.lane && b.lane) return {true, *a.lane == *b.lane ? a.lane : std::nullopt};
  if (a.lane) return {true, a.lane};
  if (b.lane) return {true, b.lane};
  return {a.v.shared && b.v.shared, std::nullopt};
}

// "uint*" -> "uint", "int[8]" -> "int", "const float *" -> "float".
std::string elementName(const std::string& name) { return values::pointeeTypeName(name); }

class Evaluator {
 public:
  explicit Evaluator(const ExprScope& s) : s_(s), m_(s.symbols.module()) {}

  ExprValue eval(const ExprNode& n) {
    switch (n.kind) {
      case Kind::Number:
        return number(n);
      case Kind::Name:
      case Kind::Id:
        return read(n);
      case Kind::Lane:
        return laneIndex();
      case Kind::Unary:
        return unary(n.text, eval(*n.a));
      case Kind::Binary:
        return binary(n.text, eval(*n.a), eval(*n.b));
      case Kind::Index:
        return index(eval(*n.a), eval(*n.b), false);
      case Kind::At:
        return index(eval(*n.a), eval(*n.b), true);
      case Kind::Member:
        return member(n);
      case Kind::Paren: {
        ExprValue x = eval(*n.a);
        x.v.label = "(" + x.v.label + ")";
        return x;
      }
    }
    throw DebugError("unknown expression");
  }

 private:
  uint32_t lanes() const { return s_.sg.liveLanes; }

  ExprValue computed(const Shape& shape, const Arith& a, std::string label) const {
    ExprValue r;
    r.v.shared = shape.shared;
    r.lane = shape.lane;
    r.arith = a;
    r.v.typeName = arithName(a);
    r.v.isSigned = a.isSigned;
    r.v.label = std::move(label);
    return r;
  }

  static void put(ExprValue& r, std::vector<uint8_t> bytes, std::string error) {
    r.v.bytes.push_back(std::move(bytes));
    r.v.errors.push_back(std::move(error));
  }

  ExprValue number(const ExprNode& n) const {
    ExprValue r = computed({true, std::nullopt}, n.arith, n.text);
    Num v;
    v.isFloat = n.arith.kind == Arith::Kind::Float;
    v.i = wrap(static_cast<__int128>(n.integer), n.arith);
    v.f = n.real;
    put(r, storeNum(v, n.arith), "");
    return r;
  }

  ExprValue laneIndex() const {
    const Arith a{Arith::Kind::Int, 32, false};
    ExprValue r = computed({bool(s_.lane), std::nullopt}, a, "$lane");
    for (uint32_t l = 0; l < (s_.lane ? 1 : lanes()); ++l) {
      Num v;
      v.i = s_.lane ? *s_.lane : l;
      put(r, storeNum(v, a), "");
    }
    return r;
  }

  // A dotted name that is no component ("k.tile") is one name.
  ExprValue member(const ExprNode& n) {
    const std::optional<uint32_t> c = componentIndex(n.text);
    if (!c) {
      if (const std::string name = dottedName(n); !name.empty()) {
        ExprNode whole;
        whole.kind = Kind::Name;
        whole.text = name;
        return read(whole);
      }
      throw DebugError(fmt::format("'.{}' is not a component (.x .y .z .w or .s0 to .sf)", n.text));
    }
    return component(eval(*n.a), *c);
  }

  static std::string dottedName(const ExprNode& n) {
    if (n.kind == Kind::Name) return n.text;
    if (n.kind != Kind::Member) return "";
    const std::string base = dottedName(*n.a);
    return base.empty() ? "" : base + "." + n.text;
  }

  ExprValue read(const ExprNode& n) const {
    ValueRef ref;
    ref.byId = n.kind == Kind::Id;
    ref.id = n.id;
    if (ref.byId)
      ref.idName = n.text;  // %in: named as spvsim dis names it (n.id 0)
    else
      ref.name = n.text;
    ExprValue r;
    r.v = ValueReader(s_.symbols, s_.sg, s_.frame).read(ref);
    return r;
  }

  ExprValue component(ExprValue x, uint32_t c) const {
    const spirv::Type* t = x.v.type ? m_.findType(x.v.type) : nullptr;
    if (!t || t->kind != spirv::TypeKind::Vector)
      throw DebugError(
          fmt::format("{} is a {}, not a vector: it has no components", x.v.label, x.v.typeName));
    if (c >= t->count)
      throw DebugError(
          fmt::format("{} has {} components; .s{:x} is not one", x.v.label, t->count, c));
    const uint64_t size = m_.type(t->element).size;
    for (auto& b : x.v.bytes)
      if (!b.empty()) b = std::vector<uint8_t>(b.begin() + c * size, b.begin() + (c + 1) * size);
    for (uint64_t& h : x.v.homes) h += c * size;
    x.v.type = t->element;
    while (!x.v.typeName.empty() && std::isdigit(static_cast<unsigned char>(x.v.typeName.back())))
      x.v.typeName.pop_back();
    x.v.label += fmt::format(".s{:x}", c);
    return x;
  }

  Arith scalar(const ExprValue& x, const char* what) const {
    const Arith a = arithOf(x, m_);
    if (a.kind == Arith::Kind::None)
      throw DebugError(
          fmt::format("{} is a {}: {} takes numbers (pick a vector component with "
                      ".x, or an element with [I])",
                      x.v.label, x.v.typeName, what));
    return a;
  }

  Arith integer(const ExprValue& x, const char* what) const {
    const Arith a = scalar(x, what);
    if (a.kind != Arith::Kind::Int)
      throw DebugError(fmt::format("{} is a {}: {} takes integers", x.v.label, x.v.typeName, what));
    return a;
  }

  ExprValue unary(const std::string& op, const ExprValue& x) const {
    const Arith a =
        op == "~" ? promote(integer(x, "'~'")) : promote(scalar(x, op == "!" ? "'!'" : "'-'"));
    const Arith out = op == "!" ? Arith{Arith::Kind::Int, 32, true} : a;
    ExprValue r = computed({x.v.shared, x.lane}, out, op + x.v.label);
    for (size_t e = 0; e < x.v.bytes.size(); ++e) {
      Num n;
      try {
        n = loadNum(x, e, m_);
      } catch (const DebugError& error) {
        put(r, {}, error.what());
        continue;
      }
      Num v;
      v.isFloat = out.kind == Arith::Kind::Float;
      if (op == "!")
        v.i = !n.truth();
      else if (v.isFloat)
        v.f = -n.f;
      else
        v.i = wrap(op == "-" ? -n.i : ~n.i, out);
      put(r, storeNum(v, out), "");
    }
    return r;
  }

  static Arith common(Arith a, Arith b) {
    a = promote(a);
    b = promote(b);
    if (a.kind == Arith::Kind::Float || b.kind == Arith::Kind::Float) {
      const uint32_t wa = a.kind == Arith::Kind::Float ? a.width : 0;
      const uint32_t wb = b.kind == Arith::Kind::Float ? b.width : 0;
      return {Arith::Kind::Float, std::max(wa, wb), true};
    }
    const uint32_t w = std::max(a.width, b.width);
    const bool isUnsigned = (a.width == w && !a.isSigned) || (b.width == w && !b.isSigned);
    return {Arith::Kind::Int, w, !isUnsigned};
  }

  ExprValue binary(const std::string& op, const ExprValue& a, const ExprValue& b) const {
    const bool logical = op == "&&" || op == "||";
    const bool compare =
        op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=";
    const bool bits = op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>" || op == "%";
    const std::string what = "'" + op + "'";
    const Arith ta = bits ? integer(a, what.c_str()) : scalar(a, what.c_str());
    const Arith tb = bits ? integer(b, what.c_str()) : scalar(b, what.c_str());
    const Arith type = op == "<<" || op == ">>" ? promote(ta) : common(ta, tb);
    const Arith out = logical || compare ? Arith{Arith::Kind::Int, 32, true} : type;
    const Shape shape = combine(a, b);
    ExprValue r = computed(shape, out, a.v.label + " " + op + " " + b.v.label);
    const uint32_t count = shape.shared ? 1 : lanes();
    for (uint32_t e = 0; e < count; ++e) {
      const uint32_t lane = shape.shared ? shape.lane.value_or(0) : e;
      try {
        const Num x = loadNum(a, entryOf(a, lane), m_);
        if (logical && (op == "&&" ? !x.truth() : x.truth())) {  // decided by the left side
          put(r, storeNum(Num{false, op == "||", 0}, out), "");
          continue;
        }
        const Num y = loadNum(b, entryOf(b, lane), m_);
        put(r, storeNum(apply(op, x, y, type, logical, compare), out), "");
      } catch (const DebugError& error) {
        put(r, {}, error.what());
      }
    }
    return r;
  }

  static Num apply(const std::string& op, const Num& x, const Num& y, const Arith& t, bool logical,
                   bool compare) {
    Num r;
    if (logical) {
      r.i = op == "&&" ? (x.truth() && y.truth()) : (x.truth() || y.truth());
      return r;
    }
    if (compare) {
      r.i = t.kind == Arith::Kind::Float ? holds(op, x.real(), y.real())
                                         : holds(op, wrap(x.i, t), wrap(y.i, t));
      return r;
    }
    if (t.kind == Arith::Kind::Float) {
      r.isFloat = true;
      const double a = x.real(), b = y.real();
      r.f = op == "+" ? a + b : op == "-" ? a - b : op == "*" ? a * b : a / b;  // IEEE
      if (t.width == 32) r.f = static_cast<float>(r.f);
      return r;
    }
    const __int128 a = wrap(x.i, t), b = op == "<<" || op == ">>" ? y.i : wrap(y.i, t);
    if ((op == "/" || op == "%") && b == 0) throw DebugError("division by zero");
    if ((op == "<<" || op == ">>") && (b < 0 || b >= t.width))
      throw DebugError(fmt::format("shift count {} is outside 0-{}", int64_t(b), t.width - 1));
    __int128 v = 0;
    if (op == "+")
      v = a + b;
    else if (op == "-")
      v = a - b;
    else if (op == "*")
      v = static_cast<__int128>(static_cast<unsigned __int128>(a) *
                                static_cast<unsigned __int128>(b));
    else if (op == "/")
      v = a / b;
    else if (op == "%")
      v = a % b;
    else if (op == "&")
      v = a & b;
    else if (op == "|")
      v = a | b;
    else if (op == "^")
      v = a ^ b;
    else if (op == "<<")
      v = static_cast<__int128>(static_cast<unsigned __int128>(a) << int(b));
    else
      v = a >> int(b);  // arithmetic for signed (a is sign-extended), logical otherwise
    r.i = wrap(v, t);
    return r;
  }

  template <class T>
  static bool holds(const std::string& op, T a, T b) {
    if (op == "==") return a == b;
    if (op == "!=") return a != b;
    if (op == "<") return a < b;
    if (op == "<=") return a <= b;
    if (op == ">") return a > b;
    return a >= b;
  }

  // E[I] and E@N: memory through a pointer, an array element, or a lane.
  ExprValue index(const ExprValue& base, const ExprValue& idx, bool at) const {
    integer(idx, at ? "a lane number after '@'" : "an index");
    const spirv::Type* t = base.v.type ? m_.findType(base.v.type) : nullptr;
    if (!at && t && t->kind == spirv::TypeKind::Pointer) return memoryElement(base, idx, *t);
    if (!at && t && t->kind == spirv::TypeKind::Array) return arrayElement(base, idx, *t);
    return pickLane(base, idx, at);
  }

  ExprValue pickLane(ExprValue x, const ExprValue& idx, bool at) const {
    const std::string label =
        at ? x.v.label + "@" + idx.v.label : x.v.label + "[" + idx.v.label + "]";
    if (!idx.v.shared)
      throw DebugError(
          fmt::format("{}: the lane must be one number for the sub-group (a number or "
                      "$lane), not a per-lane value",
                      label));
    const Num n = loadNum(idx, 0, m_);
    if (n.i < 0 || n.i >= lanes())
      throw DebugError(fmt::format("lane {} does not exist: sub-group {} has lanes 0-{}",
                                   int64_t(n.i), s_.sg.id, lanes() - 1));
    const uint32_t lane = static_cast<uint32_t>(n.i);
    if (!x.v.shared) {
      x.v.bytes = {x.v.bytes[lane]};
      x.v.errors = {x.v.errors[lane]};
      if (!x.v.homes.empty()) x.v.homes = {x.v.homes[lane]};
      x.v.shared = true;
    }
    x.lane = lane;
    x.v.label = label;
    return x;
  }

  ExprValue arrayElement(const ExprValue& base, const ExprValue& idx, const spirv::Type& t) const {
    const uint64_t stride = m_.type(t.element).size;
    const Shape shape = combine(base, idx);
    ExprValue r;
    r.v = base.v;
    r.v.bytes.clear();
    r.v.errors.clear();
    r.v.homes.clear();
    r.v.shared = shape.shared;
    r.lane = shape.lane;
    r.v.type = t.element;
    r.v.typeName = base.v.typeName.empty() ? "" : elementName(base.v.typeName);
    if (r.v.typeName.empty()) r.v.typeName = spirv::typeName(m_, t.element);
    r.v.label = base.v.label + "[" + idx.v.label + "]";
    const uint32_t count = shape.shared ? 1 : lanes();
    for (uint32_t e = 0; e < count; ++e) {
      const uint32_t lane = shape.shared ? shape.lane.value_or(0) : e;
      const size_t be = entryOf(base, lane);
      __int128 i = 0;
      std::string error = base.v.errors[be];
      if (error.empty()) {
        try {
          i = loadNum(idx, entryOf(idx, lane), m_).i;
          if (i < 0 || i >= __int128(t.count))
            error = fmt::format("index {} is outside {}: it has {} elements (0-{})", int64_t(i),
                                base.v.label, t.count, t.count - 1);
        } catch (const DebugError& e2) {
          error = e2.what();
        }
      }
      if (!base.v.homes.empty()) r.v.homes.push_back(base.v.homes[be] + uint64_t(i) * stride);
      if (!error.empty()) {
        put(r, {}, error);
        continue;
      }
      const auto& b = base.v.bytes[be];
      put(r, std::vector<uint8_t>(b.begin() + i * stride, b.begin() + (i + 1) * stride), "");
    }
    return r;
  }

  ExprValue memoryElement(const ExprValue& base, const ExprValue& idx, const spirv::Type& t) const {
    const spirv::Type& element = m_.type(t.element);
    const uint64_t size = std::max<uint64_t>(element.size, 1);
    const Shape shape = combine(base, idx);
    ExprValue r;
    r.v.type = t.element;
    r.v.typeName = elementName(base.v.typeName);
    if (r.v.typeName.empty()) r.v.typeName = spirv::typeName(m_, t.element);
    r.v.isSigned = r.v.typeName.empty() || r.v.typeName[0] != 'u';
    r.v.label = base.v.label + "[" + idx.v.label + "]";
    r.v.shared = shape.shared;
    r.lane = shape.lane;
    const uint32_t count = shape.shared ? 1 : lanes();
    for (uint32_t e = 0; e < count; ++e) {
      const uint32_t lane = shape.shared ? shape.lane.value_or(0) : e;
      const size_t be = entryOf(base, lane);
      uint64_t p = 0, address = 0;
      try {
        if (!base.v.errors[be].empty()) throw DebugError(base.v.errors[be]);
        p = kernelPointer(s_.sg, base.v.bytes[be]);
        const __int128 i = loadNum(idx, entryOf(idx, lane), m_).i;
        address = p + static_cast<uint64_t>(i * __int128(size));
        if (r.v.storage.empty()) r.v.storage = spaceName(pointerSpace(p));
        AccessError error = AccessError::Ok;
        const uint8_t* host = s_.sg.locate(address, lane, size, false, error);
        if (!host) throw DebugError(problem(error, base, p, size, r.v.typeName));
        r.v.homes.push_back(address);
        put(r, std::vector<uint8_t>(host, host + size), "");
      } catch (const DebugError& error) {
        r.v.homes.push_back(address);
        put(r, {}, error.what());
      }
    }
    collapse(r);
    return r;
  }

  std::string problem(AccessError error, const ExprValue& base, uint64_t p, uint64_t size,
                      const std::string& type) const {
    if (error != AccessError::OutOfBounds) return accessProblem(error);
    const Region* region = s_.sg.wg->launch->memory->regionOf(p);
    const uint64_t offset = pointerOffset(p);
    const uint64_t n = region && offset <= region->size ? (region->size - offset) / size : 0;
    return fmt::format("out of bounds: {} points at {}, {} {} element{} from there{}", base.v.label,
                       s_.namer ? s_.namer(p) : formatRawPointer(p), n, type, n == 1 ? "" : "s",
                       n ? fmt::format(" (0-{})", n - 1) : "");
  }

  // Memory every lane reads at one address (global, constant, local) is one value.
  static void collapse(ExprValue& r) {
    if (r.v.shared || r.v.storage == "private" || r.v.bytes.empty()) return;
    for (size_t e = 0; e < r.v.bytes.size(); ++e)
      if (!r.v.errors[e].empty() || r.v.homes[e] != r.v.homes[0]) return;
    r.v.bytes.resize(1);
    r.v.errors.resize(1);
    r.v.homes.resize(1);
    r.v.shared = true;
  }

  const ExprScope& s_;
  const spirv::Module& m_;
};

}  // namespace

ExprValue evaluate(const Expression& e, const ExprScope& scope) {
  return Evaluator(scope).eval(e.root());
}

}  // namespace spvsim::debugger
