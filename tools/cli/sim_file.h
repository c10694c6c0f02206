// Oclgrind's .sim files (the input of `oclgrind-kernel`), so that existing Oclgrind test
// cases run unchanged with `spvsim run FILE.sim`. The text's layout (setup lines, header
// tokens, comments) is src/formats/sim_text.h's, shared with the ICD's capture that
// writes them; this reads the arguments against the kernel's parameters:
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
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "spirv/kernel_signature.h"
#include "src/formats/sim_text.h"
#include "tools/cli/arg_value.h"

namespace spvsim::tools {

using formats::SimSetup;

// Reads a .sim text in two steps: the setup names the program, which the caller loads to
// learn the kernel's parameters; the arguments are then read against them (a header
// without a type takes the parameter's type; a local pointer takes no values). Errors
// throw Error(DiagnosticKind::Input) as "NAME:LINE: message (argument I: NAME)".
class SimFile : public formats::SimText {
 public:
  using formats::SimText::SimText;

  // The setup is SimText::readSetup's. The arguments follow it; reading them also checks
  // that nothing follows the last one. Buffers marked `dump` have
  // ArgValue::dump set; `noinit` buffers start zeroed. Each buffer is counted in `memory`
  // (when given) before it is allocated.
  std::vector<ArgValue> readArguments(const std::vector<spirv::ParamSignature>& params,
                                      ArgMemory* memory = nullptr);

 private:
  using Header = formats::SimHeader;

  Header parseHeader(const std::string& text, const spirv::ParamSignature& param);
  ArgValue readArgument(const spirv::ParamSignature& param);
  ArgValue readBuffer(const Header& h, const spirv::ParamSignature& param);
  ArgValue readStruct(const Header& h, const spirv::ParamSignature& param);
  ArgValue readImageOrSampler(const std::string& text, const spirv::ParamSignature& param);
  ArgValue readPipe(const Header& h, const spirv::ParamSignature& param);
  // What fill= or range= writes into a buffer's zeroed bytes, checked now (the errors name
  // the file position); null when the values follow in the file.
  using Initializer = std::function<void(std::span<uint8_t>)>;
  Initializer initializer(const Header& h, const ArgValue& arg);
  void readData(const Header& h, ArgValue& arg);
  void reserveBuffer(uint64_t bytes);
  void writePending(std::vector<ArgValue>& args);

  // A large buffer whose storage readArguments allocates and writes after the reading.
  struct Pending {
    size_t arg = 0;
    uint64_t bytes = 0;
    Initializer init;  // null: zeros (noinit)
  };

  ArgMemory* memory_ = nullptr;  // during readArguments
  size_t argIndex_ = 0;          // the argument being read
  std::vector<Pending> pending_;
};

}  // namespace spvsim::tools
