// Fuzz target: Oclgrind .sim files (tools/sim_file.h): SimFile::readSetup, then
// SimFile::readArguments against a kernel's parameters, then validateArguments, as
// `spvsim run FILE.sim` does once the program is loaded.
//
// Input: a first line naming the kernel's parameters, one letter each (table below), then
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
#include "tools/arg_value.h"
#include "tools/fuzz/fuzz_input.h"
#include "tools/sim_file.h"

namespace {

using spvsim::spirv::ParamSignature;
using Kind = spvsim::spirv::ParamKind;

struct Template {
  char letter;
  Kind kind;
  const char* typeName;
  uint64_t size;
  bool isFloating;
};

// Parameter kinds and OpenCL C type names as the loader's signatures have them.
constexpr Template kTemplates[] = {
    {'c', Kind::Value, "char", 1, false},
    {'s', Kind::Value, "short", 2, false},
    {'h', Kind::Value, "half", 2, true},
    {'i', Kind::Value, "int", 4, false},
    {'u', Kind::Value, "uint", 4, false},
    {'f', Kind::Value, "float", 4, true},
    {'l', Kind::Value, "long", 8, false},
    {'d', Kind::Value, "double", 8, true},
    {'z', Kind::Value, "size_t", 8, false},
    {'v', Kind::Value, "float4", 16, true},
    {'w', Kind::Value, "int3", 16, false},
    {'G', Kind::GlobalPointer, "float*", 8, false},
    {'I', Kind::GlobalPointer, "int*", 8, false},
    {'U', Kind::GlobalPointer, "uint*", 8, false},
    {'C', Kind::GlobalPointer, "uchar*", 8, false},
    {'D', Kind::GlobalPointer, "double*", 8, false},
    {'H', Kind::GlobalPointer, "half*", 8, false},
    {'F', Kind::GlobalPointer, "float4*", 8, false},
    {'V', Kind::GlobalPointer, "void*", 8, false},
    {'R', Kind::GlobalPointer, "const volatile int*", 8, false},
    {'S', Kind::GlobalPointer, "struct Pair*", 8, false},
    {'K', Kind::ConstantPointer, "int*", 8, false},
    {'k', Kind::ConstantPointer, "float*", 8, false},
    {'L', Kind::LocalPointer, "float*", 8, false},
    {'M', Kind::LocalPointer, "int*", 8, false},
    {'T', Kind::ByValStruct, "struct Pair", 8, false},
    {'X', Kind::Image, "image2d_t", 8, false},
};

std::vector<ParamSignature> paramsFrom(std::string_view letters) {
  std::vector<ParamSignature> params;
  for (char c : letters) {
    for (const Template& t : kTemplates) {
      if (t.letter != c) continue;
      ParamSignature p;
      p.index = static_cast<uint32_t>(params.size());
      p.name = "arg" + std::to_string(p.index);
      p.typeName = t.typeName;
      p.kind = t.kind;
      p.size = t.size;
      p.isFloating = t.isFloating;
      p.readOnly = c == 'K' || c == 'k' || c == 'R';
      params.push_back(std::move(p));
      break;
    }
    if (params.size() == 16) break;
  }
  return params;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace spvsim;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t eol = input.find('\n');
  if (eol == std::string_view::npos) return 0;
  const std::string text(input.substr(eol + 1));
  const std::vector<spirv::ParamSignature> params = paramsFrom(input.substr(0, eol));
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
