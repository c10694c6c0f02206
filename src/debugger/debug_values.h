// Reading a sub-group's values for `spvsim debug`: value expressions (`%23`, `x`,
// `x[3]`, `v.y`), each lane's bytes from registers or the variable's memory, their text,
// and breakpoint conditions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/debugger/debug_print.h"
#include "src/debugger/debug_symbols.h"
#include "src/exec/subgroup.h"

namespace spvsim::debugger {

// `%ID` or `NAME`, then optionally `[LANE]`, then optionally a vector component
// `.x` `.y` `.z` `.w` or `.sN` (N hexadecimal, as in OpenCL C).
struct ValueRef {
  bool byId = false;
  spirv::Id id = 0;    // %23; 0 with idName
  std::string idName;  // %in: `spvsim dis`'s name, resolved when read
  std::string name;
  std::optional<uint32_t> lane;
  std::optional<uint32_t> component;
};

// Throws DebugError for text that is not a value expression.
ValueRef parseValueRef(std::string_view text);

// Why a debugger read of memory failed, in a few words ("out of bounds").
std::string accessProblem(AccessError e);

// One value as a sub-group holds it: per lane, or once when it lives in memory that all
// lanes share (local, global or constant storage).
struct LaneValues {
  std::string label;      // "x", "%23"
  std::string component;  // ".s1" when one component of a vector was asked for
  spirv::Id type = 0;     // of the value shown (the pointee of a variable)
  std::string typeName;   // "uint", "int4", from debug info where known
  bool isSigned = false;
  bool shared = false;
  std::string storage;  // "" (a register), "private", "local", "global", "constant"
  std::string note;     // e.g. "variable of function twice"
  std::vector<std::vector<uint8_t>> bytes;  // per live lane (shared: one entry)
  std::vector<std::string> errors;          // per entry: why it could not be read, or ""
  // Where each entry lives, for `set var` and watchpoints: a kernel pointer, or with
  // `inRegisters` a byte offset into the sub-group's register file; empty when computed.
  bool inRegisters = false;
  std::vector<uint64_t> homes;
};

// The function and SPIR-V instruction names are looked up from: a frame of the call
// stack (`frame N`), by default the innermost one where the sub-group stands.
struct FrameScope {
  uint32_t function = 0;
  uint32_t src = 0;
};

// A pointer value as the debugger holds it: its memory form, 8 bytes of the encoding of
// src/exec/memory.h, or in a Physical32 module the 4-byte address (src/exec/address32.h),
// which this turns into the encoded pointer through the launch's map.
uint64_t kernelPointer(const SubGroup& sg, const std::vector<uint8_t>& bytes);
// Whether the sub-group runs a Physical32 module (its pointers show as 32-bit addresses).
inline bool addresses32(const SubGroup& sg) { return sg.wg->launch->memory->addresses32; }

// Frame `depth` of the sub-group's call stack (0: innermost): its function and the
// instruction it stands at (callers: their call). Throws DebugError past the outermost.
FrameScope frameScope(const SubGroup& sg, size_t depth);
// The instruction (pc) frame `depth` stands at: callers at their call.
uint32_t framePc(const SubGroup& sg, size_t depth);

class ValueReader {
 public:
  ValueReader(const Symbols& symbols, SubGroup& subGroup,
              std::optional<FrameScope> scope = std::nullopt);

  const spirv::Module& module() const { return symbols_.module(); }

  // Throws DebugError: unknown id or name, a lane the sub-group lacks, a component of a
  // value that is not a vector.
  LaneValues read(const ValueRef& ref) const;

  // "x (uint) = [0]=1 [1]=2 [2]=- [3]=4": inactive lanes show "-"; with `lane` only
  // that lane ("x[2] (uint) = 3", "(inactive)" added when it is).
  std::string format(const LaneValues& v, std::optional<uint32_t> lane, const ValueStyle& style,
                     const PointerNamer& namer) const;

 private:
  uint32_t function() const;
  uint32_t src() const;
  void readRegister(const ValueSlot& slot, LaneValues& out) const;
  void readStorage(const ValueSlot& slot, LaneValues& out) const;
  void selectComponent(uint32_t component, LaneValues& out) const;

  const Symbols& symbols_;
  SubGroup& sg_;  // locate() reads memory as a lane sees it
  std::optional<FrameScope> scope_;
};

// "NAME", "NAME[I]" or "NAME[I:J]" (elements I to J-1) of a buffer or local memory.
struct ElementRange {
  std::string name;
  std::string text;             // as written, for messages
  bool whole = true;            // no [...]
  uint64_t first = 0, end = 0;  // when not whole
};

// Throws DebugError for malformed text (I >= J included).
ElementRange parseElementRange(std::string_view text);

// [first, end) of `range` in memory of `count` elements: the whole memory is its first
// `limit` elements. Throws DebugError when the range passes the end.
std::pair<uint64_t, uint64_t> elementBounds(const ElementRange& range, uint64_t count,
                                            uint64_t limit);

// The instruction where a sub-group stands: its barrier while it waits there.
uint32_t locationPc(const SubGroup& sg);

}  // namespace spvsim::debugger
