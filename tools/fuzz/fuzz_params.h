// Kernel parameters for the fuzz targets that bind arguments (fuzz_sim_file, fuzz_bundle):
// a line of letters, one per parameter, each naming a parameter kind and OpenCL C type as
// the loader's signatures have them (the table below), so the fuzzer varies the kernel
// the input is bound to as well as the input.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/kernel_signature.h"

namespace spvsim::fuzz {

struct ParamTemplate {
  char letter;
  spirv::ParamKind kind;
  const char* typeName;
  uint64_t size;
  bool isFloating;
};

inline constexpr ParamTemplate kParamTemplates[] = {
    {'c', spirv::ParamKind::Value, "char", 1, false},
    {'s', spirv::ParamKind::Value, "short", 2, false},
    {'h', spirv::ParamKind::Value, "half", 2, true},
    {'i', spirv::ParamKind::Value, "int", 4, false},
    {'u', spirv::ParamKind::Value, "uint", 4, false},
    {'f', spirv::ParamKind::Value, "float", 4, true},
    {'l', spirv::ParamKind::Value, "long", 8, false},
    {'d', spirv::ParamKind::Value, "double", 8, true},
    {'z', spirv::ParamKind::Value, "size_t", 8, false},
    {'v', spirv::ParamKind::Value, "float4", 16, true},
    {'w', spirv::ParamKind::Value, "int3", 16, false},
    {'G', spirv::ParamKind::GlobalPointer, "float*", 8, false},
    {'I', spirv::ParamKind::GlobalPointer, "int*", 8, false},
    {'U', spirv::ParamKind::GlobalPointer, "uint*", 8, false},
    {'C', spirv::ParamKind::GlobalPointer, "uchar*", 8, false},
    {'D', spirv::ParamKind::GlobalPointer, "double*", 8, false},
    {'H', spirv::ParamKind::GlobalPointer, "half*", 8, false},
    {'F', spirv::ParamKind::GlobalPointer, "float4*", 8, false},
    {'V', spirv::ParamKind::GlobalPointer, "void*", 8, false},
    {'R', spirv::ParamKind::GlobalPointer, "const volatile int*", 8, false},
    {'S', spirv::ParamKind::GlobalPointer, "struct Pair*", 8, false},
    {'K', spirv::ParamKind::ConstantPointer, "int*", 8, false},
    {'k', spirv::ParamKind::ConstantPointer, "float*", 8, false},
    {'L', spirv::ParamKind::LocalPointer, "float*", 8, false},
    {'M', spirv::ParamKind::LocalPointer, "int*", 8, false},
    {'T', spirv::ParamKind::ByValStruct, "struct Pair", 8, false},
    {'X', spirv::ParamKind::Image, "image2d_t", 8, false},
    {'P', spirv::ParamKind::Sampler, "sampler_t", 8, false},
};

// At most 16 parameters; letters not in the table are skipped.
inline std::vector<spirv::ParamSignature> paramsFrom(std::string_view letters) {
  std::vector<spirv::ParamSignature> params;
  for (char c : letters) {
    for (const ParamTemplate& t : kParamTemplates) {
      if (t.letter != c) continue;
      spirv::ParamSignature p;
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

}  // namespace spvsim::fuzz
