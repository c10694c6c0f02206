// The work behind clBuildProgram, clCompileProgram and clLinkProgram: OpenCL C to SPIR-V
// (src/compiler/compile_driver.h), SPIR-V linking (SPIRV-Tools' linker; only when several
// modules are linked or a library is made) and loading the executable
// (spvsim::Program, with every kernel lowered so that unsupported instructions fail the
// build rather than a launch). Nothing here touches program objects.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/object.h"
#include "runtime/program.h"
#include "src/compiler/compile_driver.h"
#include "src/exec/program.h"

namespace spvsim::rt {

// What a build, compile or link produced; `error` is CL_SUCCESS or its error code.
struct BuildResult {
  cl_int error = CL_SUCCESS;
  std::string log;
  std::vector<uint32_t> binary;  // the module Program::load was given (no markers)
  ProgramFacts facts;            // binaryType NONE after a failure
  ParseCount parses;             // what this build, compile or link went over
  std::shared_ptr<Program> executable;
};

// clBuildProgram of OpenCL C source: compile, link alone, load.
BuildResult buildSource(const std::string& source, const std::string& options);
// clBuildProgram of (specialized) SPIR-V that program creation loaded.
BuildResult buildIL(std::vector<uint32_t> words, const std::string& options);
// clBuildProgram of a binary (an executable, or a compiled object that links alone) that
// program creation loaded; `uniform` is its uniform-work-group fact.
BuildResult buildBinary(std::vector<uint32_t> binary, bool uniform);

// clCompileProgram: a compiled object.
BuildResult compileSource(const std::string& source, const std::string& options,
                          const std::vector<compiler::SourceHeader>& headers);
BuildResult compileIL(std::vector<uint32_t> words, const std::string& options);

struct LinkOptions {
  bool createLibrary = false;
};
// The clLinkProgram options (linker options of the API spec); false if invalid.
bool parseLinkOptions(const std::string& options, LinkOptions& out);

struct LinkInput {
  std::vector<uint32_t> binary;
  bool uniformWorkGroups = false;
  std::vector<ProgramSource> sources;  // not linked: what the linked program was made from
};
// clLinkProgram: a library or an executable.
BuildResult linkPrograms(const std::vector<LinkInput>& inputs, const LinkOptions& options);

}  // namespace spvsim::rt
