// Oclgrind's .sim files (the input of `oclgrind-kernel`, and what the ICD's capture
// repeats as launch.sim, runtime/capture_sim.cc), as text: the one definition of their
// layout that the writer and the reader (tools/cli/sim_file.h, which turns the arguments
// into the command line's values against the kernel's parameters) share.
//
//   kernels.cl          program: .cl, .spv or .spvasm, relative to the .sim file
//   saxpy               kernel name
//   8 1 1               global size
//   4 1 1               local size
//   <size=4 float>      one <...> header per kernel argument, in order
//   2.5                 values follow the header unless it has an initializer
//   <size=32 float range=0:1:7>
//   <size=32 float fill=10 dump>
//
// Header tokens: a type (char uchar short ushort int uint long ulong float double; half
// too), size=BYTES, pipe=MAXPACKETS, fill=V, range=START:INC:END, struct=TYPE,..., dump,
// hex, noinit, null, ro, wo. `#` starts a comment; values may share lines. Image and
// sampler headers (<image2d RGBA,UNORM_INT8[4,2] dump>, <sampler ...>) and <queue> are
// read by tools/cli/sim_file.cc from headerText.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/values/element_type.h"

namespace spvsim::formats {

struct SimSetup {
  std::string program;  // as written in the file
  std::string kernel;
  std::array<uint64_t, 3> global{1, 1, 1};
  std::array<uint64_t, 3> local{1, 1, 1};
};

// One argument header's tokens.
struct SimHeader {
  std::string text;  // read: "<...>" as written, for messages
  std::optional<values::Scalar> type;
  std::optional<uint64_t> size;
  std::optional<uint64_t> pipe;  // pipe=MAXPACKETS
  std::string fill, range;
  std::string members;  // struct=TYPE,TYPE,... (a struct passed by value, member by member)
  bool dump = false, hex = false, noinit = false, null = false, ro = false, wo = false;
};

// Reads a .sim text token by token (comments removed, lines kept for messages). Errors
// throw Error(DiagnosticKind::Input) as "NAME:LINE: message (CONTEXT)".
class SimText {
 public:
  SimText(const std::string& text, std::string name);

  // The program, the kernel and the two sizes (each size positive).
  SimSetup readSetup();
  // The text between '<' and '>' of the next header.
  std::string headerText();
  // The tokens of a header's text; a type only where the header names one.
  SimHeader parseHeader(const std::string& text);
  // The next whitespace-separated token; `what` names it in the message at the end.
  std::string token(const char* what);
  // Whether anything but spaces and comments is left (moves to it).
  bool skipSpace();
  [[noreturn]] void fail(const std::string& message) const;

  // What is being read, for messages ("argument 1: x").
  void setContext(std::string context) { context_ = std::move(context); }
  const std::string& name() const { return name_; }
  size_t lineNumber() const;  // 1-based, of the current position
  const std::string& context() const { return context_; }

 private:
  uint64_t number(const char* what);

  std::string name_;
  std::vector<std::string> lines_;  // comments removed
  size_t line_ = 0;
  size_t pos_ = 0;
  std::string context_;
};

// The writer: the four setup lines.
std::string simSetupText(const SimSetup& setup);
// "<size=32 float ro dump>": the header's tokens (not `text`) in one order: size, type,
// pipe, fill, range, struct, null, noinit, ro, wo, hex, dump.
std::string simHeaderText(const SimHeader& h);
// The .sim scalar of an OpenCL C type name as the writer takes it ("const float4*" ->
// float; char..ulong, float, double); uchar for pointers to anything else (void,
// structs), as Oclgrind reads them; nullopt for other values.
std::optional<values::Scalar> simScalarOf(std::string_view typeName, bool pointer);
// `size` bytes as values of `s` (one of simScalarOf's), 16 to a line, each line ended:
// integers in decimal, floats and doubles with the digits that read back to the same
// value (NaN payloads are lost).
std::string simValuesText(values::Scalar s, const uint8_t* bytes, uint64_t size);

}  // namespace spvsim::formats
