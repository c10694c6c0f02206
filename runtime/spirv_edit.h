// Small edits of SPIR-V binaries that programs need before linking or loading:
// specialization constants, the version word, and markers that record what kind of
// program binary a module is (SPIR-V is this ICD's binary format).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace spvsim::rt {

// A specialization constant that clSetProgramSpecializationConstant can set.
struct SpecConstantInfo {
  uint32_t resultId = 0;
  uint32_t bytes = 0;  // 1 for booleans (a cl_uchar), else the scalar's width in bytes
  bool isBool = false;
  bool isSigned = false;  // an integer declared signed (its literal is sign-extended)
};

// The scalar specialization constants of a module by SpecId. Empty for a malformed
// module (callers validate first).
std::map<uint32_t, SpecConstantInfo> specConstants(const std::vector<uint32_t>& words);

// The module with the given specialization constants' defaults replaced by `values`
// (SpecId -> bytes as the application passed them, sizes already checked).
std::vector<uint32_t> specialize(std::vector<uint32_t> words,
                                 const std::map<uint32_t, std::vector<uint8_t>>& values);

// The module declaring SPIR-V version `version` (0x00MMmm00). Moving from below 1.4 to
// 1.4 or later lists every module-scope variable in each entry point's interface, as
// 1.4 requires. The linker needs all inputs at one version.
std::vector<uint32_t> withVersion(std::vector<uint32_t> words, uint32_t version);

// The module declaring OpCapability Linkage, which SPIR-V requires of a module without
// entry points (a program without kernels, once linked, has none).
std::vector<uint32_t> withLinkageIfNoEntryPoints(std::vector<uint32_t> words);

// What kind of program binary a module is, recorded in OpSourceExtension markers
// ("spvsim:binary-type=executable"; valid in every SPIR-V version, unlike
// OpModuleProcessed) so that CL_PROGRAM_BINARY_TYPE and the uniform-work-group
// requirement survive a round trip through clGetProgramInfo(CL_PROGRAM_BINARIES) and
// clCreateProgramWithBinary.
enum class BinaryKind { CompiledObject, Library, Executable };
struct BinaryMarkers {
  std::optional<BinaryKind> kind;  // none for SPIR-V made elsewhere
  bool uniformWorkGroups = false;  // compiled for OpenCL C 1.x or -cl-uniform-work-group-size
};
BinaryMarkers readMarkers(const std::vector<uint32_t>& words);
std::vector<uint32_t> withoutMarkers(const std::vector<uint32_t>& words);
std::vector<uint32_t> withMarkers(const std::vector<uint32_t>& words, const BinaryMarkers& m);

}  // namespace spvsim::rt
