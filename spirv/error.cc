#include "spirv/error.h"

namespace spvsim {

std::string withoutNul(const std::string& message) {
  if (message.find('\0') == std::string::npos) return message;
  std::string out;
  for (const char c : message) out += c ? std::string(1, c) : std::string("\\x00");
  return out;
}

std::string_view kindName(DiagnosticKind kind) {
  using K = DiagnosticKind;
  switch (kind) {
    case K::Usage:
      return "usage";
    case K::Input:
      return "input";
    case K::Compile:
      return "compile";
    case K::InvalidModule:
      return "invalid-module";
    case K::Unsupported:
      return "unsupported";
    case K::InvalidArgument:
      return "invalid-argument";
    case K::OutOfMemory:
      return "out-of-memory";
    case K::OutOfBounds:
      return "out-of-bounds";
    case K::MisalignedAccess:
      return "misaligned-access";
    case K::AccessViolation:
      return "access-violation";
    case K::DataRace:
      return "data-race";
    case K::InsufficientScope:
      return "insufficient-scope";
    case K::BarrierDivergence:
      return "barrier-divergence";
    case K::NonUniformCollective:
      return "non-uniform-collective";
    case K::NonUniformArgument:
      return "non-uniform-argument";
    case K::InactiveLaneRead:
      return "inactive-lane-read";
    case K::ShuffleOutOfRange:
      return "shuffle-out-of-range";
    case K::MisalignedBlockIo:
      return "misaligned-block-io";
    case K::UninitializedRead:
      return "uninitialized-read";
    case K::UninitializedValue:
      return "uninitialized-value";
    case K::DivisionByZero:
      return "division-by-zero";
    case K::ShiftOutOfRange:
      return "shift-out-of-range";
    case K::ImageMisuse:
      return "image-misuse";
    case K::Unreachable:
      return "unreachable";
    case K::AssumptionViolated:
      return "assumption-violated";
    case K::StackOverflow:
      return "stack-overflow";
    case K::InstructionBudget:
      return "instruction-budget";
    case K::Deadlock:
      return "deadlock";
    case K::UnwaitedAsyncCopy:
      return "unwaited-async-copy";
    case K::InvalidEvent:
      return "invalid-event";
    case K::InvalidReserveId:
      return "invalid-reserve-id";
    case K::PipeMisuse:
      return "pipe-misuse";
    case K::DeviceEnqueue:
      return "device-enqueue";
    case K::PointerConversion:
      return "pointer-conversion";
    case K::Internal:
      return "internal";
  }
  return "unknown";
}

}  // namespace spvsim
