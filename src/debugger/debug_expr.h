// Expressions of `spvsim debug` (print, display, set var, watch, breakpoint conditions),
// evaluated per lane of a sub-group:
//
//   literals      12 0x1f 7u 3l 2.5 1e3 2.5f true false
//   names         a debug-info variable or OpName, %ID, $lane
//   postfix       E[I]  a pointer: element I of the memory it points at (each lane's
//                        pointer, as that lane sees memory); an array: element I;
//                        a scalar or vector: lane I (the older form of E@I)
//                 E@N   lane N of E (one value)
//                 E.x .y .z .w .sN  a vector component
//   unary         - ! ~
//   binary        * / %  + -  << >>  < <= > >=  == !=  &  ^  |  &&  ||  (C precedence)
//
// Arithmetic follows C's usual conversions on scalars (int, uint, long, ulong, float,
// double); comparisons and ! && || give int 0 or 1. A value is per lane, one value for
// the whole sub-group (a literal, memory every lane sees at one address), or one lane's
// (E@N). Division by zero, shifts past the width and reads outside memory are errors of
// the lanes they happen in; type errors throw DebugError.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "src/debugger/debug_values.h"

namespace spvsim::debugger {

struct ExprNode;

// A parsed expression; copyable (the tree is shared and immutable).
class Expression {
 public:
  // Throws DebugError: "'x +' is not a value: ..." for malformed text.
  static Expression parse(std::string_view text);
  const std::string& text() const { return text_; }
  const ExprNode& root() const { return *root_; }

 private:
  std::string text_;
  std::shared_ptr<const ExprNode> root_;
};

// The type of a computed scalar (literals and arithmetic results).
struct Arith {
  enum class Kind { None, Int, Float };
  Kind kind = Kind::None;
  uint32_t width = 0;  // bits
  bool isSigned = false;
};

// An evaluated expression: `v` holds the entries (per live lane, or one when v.shared);
// a computed scalar has v.type 0 and `arith` says what it is. `lane`: one lane's value.
struct ExprValue {
  LaneValues v;
  Arith arith;
  std::optional<uint32_t> lane;
};

// What names and $lane mean.
struct ExprScope {
  const Symbols& symbols;
  SubGroup& sg;
  std::optional<FrameScope> frame;  // none: the innermost
  std::optional<uint32_t> lane;     // $lane: this lane (the focus); none: each lane's own
  PointerNamer namer;               // names pointers in messages
};

// Throws DebugError for names that do not resolve and type errors.
ExprValue evaluate(const Expression& e, const ExprScope& scope);

// "x (uint) = [0]=1 [1]=- ..." as `print` shows it (inactive lanes "-"); `focus` adds
// that lane's value first ("= 6 at lane 2; [0]=..."). Throws DebugError when every lane
// shown failed the same way (e.g. "division by zero").
std::string formatExpr(const ExprValue& value, const spirv::Module& module, const SubGroup& sg,
                       const ValueStyle& style, const PointerNamer& namer,
                       std::optional<uint32_t> focus);

// The text of entry `entry` of `value` (a lane's value, or the shared one), as
// formatExpr shows it; "<why>" when that entry failed.
std::string entryText(const ExprValue& value, size_t entry, const spirv::Module& module,
                      const ValueStyle& style, const PointerNamer& namer);

// A condition: the lanes where it is true (non-zero), of the active ones; one lane's
// value (x[3] == 7, $lane == 3 is per lane) is checked on that lane. Throws DebugError
// when it is not a scalar or an active lane's value failed.
LaneMask conditionLanes(const ExprValue& value, const spirv::Module& module, const SubGroup& sg);

// `set var TARGET = VALUE`: writes VALUE, converted to TARGET's scalar type, into the
// register or memory TARGET names, in `lanes` (one lane's TARGET: that lane). Returns
// the lanes written. Throws DebugError for targets without a home, non-scalars and
// memory that cannot be written.
LaneMask assign(const ExprValue& target, const ExprValue& value, const LaneMask& lanes,
                SubGroup& sg, const spirv::Module& module);

// Host addresses of a value's entries with their size (watchpoints on variables and
// memory): one per entry, nullptr where it cannot be located.
struct ValueHomes {
  std::vector<uint8_t*> hosts;
  uint64_t bytes = 0;
};
ValueHomes locateHomes(const ExprValue& value, SubGroup& sg, const spirv::Module& module);

}  // namespace spvsim::debugger
