// The syntax tree of a debugger expression (src/debugger/debug_expr.h), shared by its
// parser and its evaluator.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/debugger/debug_expr.h"

namespace spvsim::debugger {

struct ExprNode {
  enum class Kind {
    Number,  // text: as written; integer/real below, type in `arith`
    Name,    // text: the name
    Id,      // id
    Lane,    // $lane
    Unary,   // text: - ! ~; a
    Binary,  // text: the operator; a, b
    Index,   // a[b]
    At,      // a@b
    Member,  // a.text
    Paren,   // (a)
  };
  Kind kind = Kind::Number;
  std::string text;
  uint32_t id = 0;
  unsigned __int128 integer = 0;
  double real = 0;
  Arith arith;
  std::shared_ptr<const ExprNode> a, b;
  uint32_t depth = 1;  // of the tree below it (evaluation recurses this deep)
};

}  // namespace spvsim::debugger

namespace spvsim::debugger {

// One lane's scalar: a wide integer (already wrapped to its type) or a real.
struct Num {
  bool isFloat = false;
  __int128 i = 0;
  double f = 0;
  double real() const { return isFloat ? f : double(i); }
  bool truth() const { return isFloat ? f != 0 : i != 0; }
};

// The scalar type of a value (Kind::None: not a scalar: vectors, pointers, aggregates).
Arith arithOf(const ExprValue& x, const spirv::Module& m);
// C's integer promotion (and half to float).
Arith promote(Arith a);
std::string arithName(const Arith& a);  // "int", "ulong", "float", ...
__int128 wrap(__int128 v, const Arith& a);
// Entry `entry` of a scalar value; throws DebugError with the entry's error.
Num loadNum(const ExprValue& x, size_t entry, const spirv::Module& m);
// `n` converted to `a` as little-endian bytes (width / 8 of them).
std::vector<uint8_t> storeNum(const Num& n, const Arith& a);
// The entry of `x` that lane `lane` reads: its own, or the one entry of a shared value.
inline size_t entryOf(const ExprValue& x, uint32_t lane) { return x.v.shared ? 0 : lane; }

}  // namespace spvsim::debugger
