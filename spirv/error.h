// The one exception type of spvsim, and the kinds of problem it and the kernel
// diagnostics name (src/DESIGN.md "Diagnostics"). Exceptions are thrown for bad input
// (modules, arguments), never on the execution hot path.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace spvsim {

// One list for exceptions and diagnostics: an exception caught by a launch becomes a
// diagnostic of the same kind. Names (kindName) are the contract's spelling.
enum class DiagnosticKind : uint8_t {
  // Problems with what the user gave spvsim.
  Usage,            // command line
  Input,            // files, .sim contents, environment
  Compile,          // OpenCL C the compile driver refused
  InvalidModule,    // SPIR-V that is malformed or invalid
  Unsupported,      // valid, but not (yet) executed by spvsim
  InvalidArgument,  // kernel arguments or NDRange that do not fit the kernel
  OutOfMemory,      // over --max-memory / SPVSIM_MAX_MEMORY
  // Undefined behaviour and failures of a running kernel.
  OutOfBounds,
  MisalignedAccess,
  AccessViolation,  // a read of a write-only or a write to a read-only buffer (creation flags)
  DataRace,
  InsufficientScope,
  BarrierDivergence,
  NonUniformCollective,
  NonUniformArgument,
  InactiveLaneRead,
  ShuffleOutOfRange,
  MisalignedBlockIo,
  UninitializedRead,
  UninitializedValue,  // an undefined value used where it matters (--check-undefined)
  DivisionByZero,
  ShiftOutOfRange,
  ImageMisuse,  // samplers, formats and image access the OpenCL C spec leaves undefined
  Unreachable,
  AssumptionViolated,  // OpAssumeTrueKHR with a false condition
  StackOverflow,
  InstructionBudget,
  Deadlock,
  UnwaitedAsyncCopy,  // a work-group finished with an async copy no wait_group_events named
  InvalidEvent,       // an async copy's event_t that no copy of the work-group returned
  InvalidReserveId,   // a pipe reserve id that is invalid, committed or of another pipe
  PipeMisuse,         // a packet size that is not the pipe's, a reservation left unwritten
  DeviceEnqueue,      // enqueued kernels that cannot run, misused device events
  PointerConversion,  // a Physical32 pointer whose 32-bit address does not lead back to it
  // A broken invariant of spvsim itself (a bug to report), never the user's input.
  Internal,
};

// "out-of-bounds", "invalid-module", ...
std::string_view kindName(DiagnosticKind kind);

inline std::ostream& operator<<(std::ostream& os, DiagnosticKind kind) {
  return os << kindName(kind);
}

// `message` with each NUL byte written as \x00: what() is a C string, and a name from a
// module or a file that holds a NUL must not cut the message short.
std::string withoutNul(const std::string& message);

class Error : public std::runtime_error {
 public:
  Error(DiagnosticKind kind, const std::string& message)
      : std::runtime_error(withoutNul(message)), kind_(kind) {}
  DiagnosticKind kind() const { return kind_; }
  std::string_view kindName() const { return spvsim::kindName(kind_); }

 private:
  DiagnosticKind kind_;
};

}  // namespace spvsim

template <>
struct fmt::formatter<spvsim::DiagnosticKind> : fmt::formatter<std::string_view> {
  template <typename Context>
  auto format(spvsim::DiagnosticKind kind, Context& ctx) const {
    return fmt::formatter<std::string_view>::format(spvsim::kindName(kind), ctx);
  }
};
