// Small edits of SPIR-V binaries that programs need before linking or loading:
// specialization constants, the version word, the Linkage capability, and the markers
// that record what kind of program binary a module is (SPIR-V is this ICD's binary
// format). None of them passes over a whole module: what they need to know comes from
// the loaded module (spirv::Module) or from the module's leading instructions
// (spirv::leadingInstructions), and every edit goes through spirv/binary.h.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spirv/module.h"

namespace spvsim::rt {

// A specialization constant that clSetProgramSpecializationConstant can set.
struct SpecConstantInfo {
  uint32_t resultId = 0;
  uint32_t type = 0;
  size_t offset = 0;   // of its OpSpecConstant* in the words of the module it was read from
  uint32_t bytes = 0;  // 1 for booleans (a cl_uchar), else the scalar's width in bytes
  bool isBool = false;
  bool isSigned = false;  // an integer declared signed (its literal is sign-extended)
};

// The scalar specialization constants of a loaded module by SpecId, with where they are
// in module.words (no pass over the words: the loader decoded them).
std::map<uint32_t, SpecConstantInfo> specConstants(const spirv::Module& module);

// `words` (the module that `specs` was read from) with the given specialization
// constants' defaults replaced by `values` (SpecId -> bytes as the application passed
// them, sizes already checked); SpecIds not in `specs` are ignored. Each instruction is
// rewritten where `specs` says it is, at the same length.
std::vector<uint32_t> specialize(std::vector<uint32_t> words,
                                 const std::map<uint32_t, SpecConstantInfo>& specs,
                                 const std::map<uint32_t, std::vector<uint8_t>>& values);

// The module declaring SPIR-V version `version` (0x00MMmm00). Moving from below 1.4 to
// 1.4 or later lists every module-scope variable in each entry point's interface, as
// 1.4 requires (spirv::withEntryPointInterfaces decodes the module for that; only the
// linker needs it, for inputs of different versions).
std::vector<uint32_t> withVersion(std::vector<uint32_t> words, uint32_t version);

// The module declaring OpCapability Linkage, which SPIR-V requires of a module without
// entry points (a program without kernels, once linked, has none). Reads the leading
// instructions only.
std::vector<uint32_t> withLinkageIfNoEntryPoints(std::vector<uint32_t> words);

// What kind of program binary a module is. Inside the ICD this is a fact of the program
// (ProgramFacts, runtime/program.h); in binaries that leave it
// (clGetProgramInfo(CL_PROGRAM_BINARIES)) and come back (clCreateProgramWithBinary) it
// is recorded in OpSourceExtension markers ("spvsim:binary-type=executable"; valid in
// every SPIR-V version, unlike OpModuleProcessed) at the start of the debug section, so
// that CL_PROGRAM_BINARY_TYPE and the uniform-work-group requirement survive the trip.
enum class BinaryKind { CompiledObject, Library, Executable };
struct BinaryMarkers {
  std::optional<BinaryKind> kind;  // none for SPIR-V made elsewhere
  bool uniformWorkGroups = false;  // compiled for OpenCL C 1.x or -cl-uniform-work-group-size
};

// A binary split into the module and its markers.
struct MarkedModule {
  std::vector<uint32_t> words;  // without this ICD's markers
  BinaryMarkers markers;
};
// Reads and removes the markers (the leading instructions only: that is where
// withMarkers puts them). Words the walker rejects come back unchanged, without markers.
MarkedModule splitMarkers(const std::vector<uint32_t>& words);
BinaryMarkers readMarkers(const std::vector<uint32_t>& words);
std::vector<uint32_t> withoutMarkers(const std::vector<uint32_t>& words);

// The words withMarkers adds for `m` (CL_PROGRAM_BINARY_SIZES counts them).
size_t markerWordCount(const BinaryMarkers& m);
// A module without markers, with `m`'s inserted before its first instruction that is
// not before the debug section (found among the leading instructions).
std::vector<uint32_t> withMarkers(const std::vector<uint32_t>& words, const BinaryMarkers& m);

}  // namespace spvsim::rt
