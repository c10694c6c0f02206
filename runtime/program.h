// Program objects: what a cl_program holds and the helpers the program, build and kernel
// files share. A program's binary is SPIR-V; its executable is a loaded spvsim::Program.
// Each create, build, compile or link loads a module at most once and keeps what later
// calls ask about as ProgramFacts; the binary-kind markers (runtime/spirv_edit.h) exist
// only in the binaries that clGetProgramInfo(CL_PROGRAM_BINARIES) hands out and
// clCreateProgramWithBinary reads.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/interfaces.h"
#include "runtime/spirv_edit.h"
#include "src/compiler/compile_driver.h"
#include "src/exec/program.h"

namespace spvsim::rt {

// How the program was made: it decides which of build, compile and link apply.
enum class ProgramOrigin { Source, IL, Binary, Linked, BuiltIn };

// How often one create, build, compile or link call went over a module's words (the
// test seam of runtime/tests/programs/program_parse_test.cc). Only loads and full decodes
// are passes over a whole module; reading the leading instructions (markers, entry
// points, capabilities) stops after the module's first sections.
struct ParseCount {
  uint32_t loads = 0;    // spirv::loadModule or Program::load (normalise, validate, decode)
  uint32_t decodes = 0;  // other decodes (spirv::withEntryPointInterfaces for a version)
  uint32_t leading = 0;  // spirv::leadingInstructions
};

// What the ICD knows about a program's binary without reading its words again.
struct ProgramFacts {
  cl_program_binary_type binaryType = CL_PROGRAM_BINARY_TYPE_NONE;  // the kind marker
  bool uniformWorkGroups = false;        // the kernels only support uniform work-groups
  uint32_t version = 0;                  // SPIR-V version word (0x00MMmm00)
  std::vector<std::string> kernelNames;  // an executable's entry points, in module order
};

// OpenCL C that went into a program's binary, kept for capture bundles
// (runtime/capture.h): a source program's text with the options and embedded headers it
// was built (clBuildProgram) or compiled (clCompileProgram) with.
struct ProgramSource {
  std::string text;
  std::string options;
  std::vector<compiler::SourceHeader> headers;  // clCompileProgram's, in the order given
  bool compiled = false;                        // by clCompileProgram (then linked)
};

// What a successful build, compile or link left (guarded by the program's mutex).
struct ProgramState {
  cl_build_status status = CL_BUILD_NONE;
  bool busy = false;  // a build, compile or link of this program is running
  std::string options, log;
  std::vector<uint32_t> binary;  // compiled object, library or executable (no markers)
  ProgramFacts facts;
  ParseCount parses;                    // of the call that made this state (or created the program)
  std::shared_ptr<Program> executable;  // after a successful build or link
  // The sources of the binary: one after a build or compile of source, the inputs' after
  // a link, none for IL and binaries.
  std::vector<ProgramSource> sources;
};

// A module a program was created with (IL) or read from (binary): its words as loaded
// (host byte order, repaired, without markers) and what creation learnt from loading it.
struct ImportedModule {
  std::vector<uint32_t> words;
  std::map<uint32_t, SpecConstantInfo> specConstants;  // by SpecId, offsets into `words`
  ProgramFacts facts;
};

}  // namespace spvsim::rt

struct _cl_program : spvsim::rt::Object {
  _cl_program() : Object(spvsim::rt::Kind::Program) {}
  ~_cl_program();                // releases the context
  cl_context context = nullptr;  // retained
  spvsim::rt::ProgramOrigin origin = spvsim::rt::ProgramOrigin::Source;
  std::string source;                   // Source
  std::vector<uint8_t> il;              // IL: the bytes as given
  spvsim::rt::ImportedModule ilModule;  // IL: as loaded at creation

  std::mutex mutex;  // guards everything below
  std::map<uint32_t, std::vector<uint8_t>> specValues;
  spvsim::rt::ProgramState state;
  std::atomic<cl_uint> kernelCount{0};  // kernels attached: no rebuild while any exist
};

namespace spvsim::rt {

// A new program of `context` (retained), registered with refcount 1.
_cl_program* newProgram(cl_context context, ProgramOrigin origin);

// The context's device list contains `device` (our one device).
bool contextHasDevice(cl_context context, cl_device_id device);

// CL_INVALID_VALUE / CL_INVALID_DEVICE for a (num_devices, device_list) pair naming
// devices that are not all in `context`; CL_SUCCESS otherwise (an empty list is all).
cl_int checkDeviceList(cl_context context, cl_uint numDevices, const cl_device_id* devices);

// The executable of a successfully built program, or nullptr.
std::shared_ptr<Program> executableOf(_cl_program* program);

// Whether the program requires uniform work-groups (see ProgramState).
bool requiresUniformWorkGroups(_cl_program* program);

}  // namespace spvsim::rt
