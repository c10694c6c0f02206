// Fuzz target: Oclgrind .sim files (tools/sim_file.h): SimFile::readSetup, then
// SimFile::readArguments against a kernel's parameters, then validateArguments, as
// `spvsim run FILE.sim` does once the program is loaded.
//
// Input: a first line naming the kernel's parameters, one letter each (fuzz_params.h), then
// the .sim text, e.g.
//   fGG
//   saxpy.cl
//   saxpy
//   ...
// Any spvsim::Error is an accepted refusal; anything else is a finding.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/error.h"
#include "src/exec/arg_check.h"
#include "tools/cli/arg_value.h"
#include "tools/cli/sim_file.h"
#include "tools/fuzz/fuzz_input.h"
#include "tools/fuzz/fuzz_params.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace spvsim;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t eol = input.find('\n');
  if (eol == std::string_view::npos) return 0;
  const std::string text(input.substr(eol + 1));
  const std::vector<spirv::ParamSignature> params = fuzz::paramsFrom(input.substr(0, eol));
  try {
    tools::SimFile sim(text, "fuzz.sim");
    const tools::SimSetup setup = sim.readSetup();
    (void)setup;
    // As --max-memory does: larger buffers are an out-of-memory refusal before allocating.
    tools::ArgMemory memory{1u << 20};
    std::vector<tools::ArgValue> args = sim.readArguments(params, &memory);
    FUZZ_CHECK(args.size() == params.size(), "one argument per parameter");
    for (const tools::ArgValue& a : args)
      if (a.kind == tools::ArgValue::Kind::Buffer || a.kind == tools::ArgValue::Kind::Value)
        // A buffer may be empty (size=0: Oclgrind allocates it); a value never is.
        FUZZ_CHECK((a.count > 0 || a.kind == tools::ArgValue::Kind::Buffer) &&
                       a.bytes.size() == a.count * a.type.size(),
                   "a buffer or value holds count elements of its type");
    spirv::KernelSignature sig{"k", params};
    validateArguments(sig, tools::bindings(args));
  } catch (const Error& e) {
    fuzz::refused(e);
  }
  return 0;
}
