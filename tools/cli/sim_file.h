// Oclgrind's .sim files (the input of `oclgrind-kernel`), so that existing Oclgrind test
// cases run unchanged with `spvsim run FILE.sim`.
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
// too), size=BYTES, fill=V, range=START:INC:END, dump, hex, noinit, null, ro, wo. A local
// pointer takes just <size=BYTES>; a buffer may have size=0. A struct passed by value
// takes its bytes as values of one type (<size=12 int> 3 1075838976 7, as Oclgrind) or
// its members in order (<struct=int,float,short> 3 2.5 7, spvsim's own form, laid out
// like the command line's struct:TYPE,...). `#` starts a comment; values may share lines.
// Images and samplers (no Oclgrind form; spvsim's, after the --arg specs):
//   <image2d RGBA,UNORM_INT8[4,2] dump>   channel values follow, or fill=V, range=..,
//                                         noinit; also hex
//   <sampler NORMALIZED,CLAMP,LINEAR>
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "spirv/kernel_signature.h"
#include "tools/cli/arg_value.h"

namespace spvsim::tools {

struct SimSetup {
  std::string program;  // as written in the file
  std::string kernel;
  std::array<uint64_t, 3> global{1, 1, 1};
  std::array<uint64_t, 3> local{1, 1, 1};
};

// Reads a .sim text in two steps: the setup names the program, which the caller loads to
// learn the kernel's parameters; the arguments are then read against them (a header
// without a type takes the parameter's type; a local pointer takes no values). Errors
// throw Error(DiagnosticKind::Input) as "NAME:LINE: message (argument I: NAME)".
class SimFile {
 public:
  SimFile(const std::string& text, std::string name);

  SimSetup readSetup();
  // Also checks that nothing follows the last argument. Buffers marked `dump` have
  // ArgValue::dump set; `noinit` buffers start zeroed. Each buffer is counted in `memory`
  // (when given) before it is allocated.
  std::vector<ArgValue> readArguments(const std::vector<spirv::ParamSignature>& params,
                                      ArgMemory* memory = nullptr);

 private:
  struct Header;

  [[noreturn]] void fail(const std::string& message) const;
  bool skipSpace();
  std::string token(const char* what);
  uint64_t number(const char* what);
  std::string headerText();
  Header parseHeader(const std::string& text, const spirv::ParamSignature& param);
  ArgValue readArgument(const spirv::ParamSignature& param);
  ArgValue readBuffer(const Header& h, const spirv::ParamSignature& param);
  ArgValue readStruct(const Header& h, const spirv::ParamSignature& param);
  ArgValue readImageOrSampler(const std::string& text, const spirv::ParamSignature& param);
  ArgValue readPipe(const Header& h, const spirv::ParamSignature& param);
  void readData(const Header& h, ArgValue& arg);
  void reserveBuffer(uint64_t bytes);

  std::string name_;
  std::vector<std::string> lines_;  // comments removed
  size_t line_ = 0;
  size_t pos_ = 0;
  std::string context_;          // what is being read, for messages
  ArgMemory* memory_ = nullptr;  // during readArguments
};

}  // namespace spvsim::tools
