// Fuzz target: one --arg SPEC (tools/arg_spec.h, parseArgSpec), then validateArgs of the
// result against one parameter of each kind, as `spvsim run` does.
//
// Input: the spec text, e.g. "buffer:float[8]=range(0,0.5)" or "struct:int,float=1,2".
// Any spvsim::Error is an accepted refusal; anything else is a finding.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/error.h"
#include "tools/arg_spec.h"
#include "tools/fuzz/fuzz_input.h"
#include "tools/params.h"

namespace {

using spvsim::tools::ParamInfo;

std::vector<ParamInfo> oneOfEachKind() {
  std::vector<ParamInfo> out;
  auto add = [&](ParamInfo::Kind kind, const char* type, uint64_t size, bool floating) {
    ParamInfo p;
    p.name = "p";
    p.typeName = type;
    p.kind = kind;
    p.size = size;
    p.isFloating = floating;
    out.push_back(p);
  };
  add(ParamInfo::Kind::Value, "int", 4, false);
  add(ParamInfo::Kind::Value, "float4", 16, true);
  add(ParamInfo::Kind::Value, "double", 8, true);
  add(ParamInfo::Kind::GlobalPointer, "float*", 8, false);
  add(ParamInfo::Kind::ConstantPointer, "int*", 8, false);
  add(ParamInfo::Kind::LocalPointer, "int*", 8, false);
  add(ParamInfo::Kind::Struct, "struct S", 12, false);
  add(ParamInfo::Kind::Image, "image2d_t", 8, false);
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
  static const std::vector<ParamInfo> params = oneOfEachKind();
  try {
    // As --max-memory does: a larger buffer is an out-of-memory refusal before allocating.
    tools::ArgMemory memory{kMaxArgumentBytes};
    const tools::ArgValue arg = tools::parseArgSpec(spec, &memory);
    if (arg.kind == tools::ArgValue::Kind::Buffer)
      FUZZ_CHECK(arg.count > 0 && arg.bytes.size() == arg.count * arg.type.size(),
                 "a buffer holds count elements of its type");
    for (ParamInfo p : params) {
      try {
        tools::validateArgs("k", {p}, {arg});
      } catch (const Error& e) {
        fuzz::refused(e);
      }
    }
  } catch (const Error& e) {
    fuzz::refused(e);
  }
  return 0;
}
