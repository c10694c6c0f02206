// Fuzz target: one --arg SPEC (tools/arg_spec.h, parseArgSpec), then the argument check
// (src/exec/arg_check.h) of the result against one parameter of each kind, as `spvsim run` does.
//
// Input: the spec text, e.g. "buffer:float[8]=range(0,0.5)" or "struct:int,float=1,2".
// Any spvsim::Error is an accepted refusal; anything else is a finding.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/error.h"
#include "src/exec/arg_check.h"
#include "tools/cli/arg_spec.h"
#include "tools/cli/arg_value.h"
#include "tools/fuzz/fuzz_input.h"

namespace {

using spvsim::spirv::ParamSignature;
using Kind = spvsim::spirv::ParamKind;

std::vector<ParamSignature> oneOfEachKind() {
  std::vector<ParamSignature> out;
  auto add = [&](Kind kind, const char* type, uint64_t size, bool floating) {
    ParamSignature p;
    p.name = "p";
    p.typeName = type;
    p.kind = kind;
    p.size = size;
    p.isFloating = floating;
    out.push_back(p);
  };
  add(Kind::Value, "int", 4, false);
  add(Kind::Value, "float4", 16, true);
  add(Kind::Value, "double", 8, true);
  add(Kind::GlobalPointer, "float*", 8, false);
  add(Kind::ConstantPointer, "int*", 8, false);
  add(Kind::LocalPointer, "int*", 8, false);
  add(Kind::ByValStruct, "struct S", 12, false);
  add(Kind::Image, "image2d_t", 8, false);
  return out;
}

// Host memory the buffers of one input may take (--max-memory of the target).
constexpr uint64_t kMaxArgumentBytes = 1u << 20;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace spvsim;
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  if (fuzz::guardsEnabled()) {
    // file(PATH) reads PATH now: keep it to relative names without '/' (the fuzzer's
    // working directory), never /dev/stdin, /dev/zero or the rest of the file system.
    if (spec.find('/') != std::string_view::npos) return -1;
  }
  static const std::vector<ParamSignature> params = oneOfEachKind();
  try {
    // As --max-memory does: a larger buffer is an out-of-memory refusal before allocating.
    tools::ArgMemory memory{kMaxArgumentBytes};
    tools::ArgValue arg = tools::parseArgSpec(spec, &memory);
    if (arg.kind == tools::ArgValue::Kind::Buffer)
      FUZZ_CHECK(arg.count > 0 && arg.bytes.size() == arg.count * arg.type.size(),
                 "a buffer holds count elements of its type");
    std::vector<tools::ArgValue> args{arg};
    const ArgBinding binding = tools::bindings(args).at(0);
    for (const ParamSignature& p : params) {
      try {
        validateArguments(spirv::KernelSignature{"k", {p}}, {binding});
      } catch (const Error& e) {
        fuzz::refused(e);
      }
    }
  } catch (const Error& e) {
    fuzz::refused(e);
  }
  return 0;
}
