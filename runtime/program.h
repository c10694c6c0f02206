// Program objects: what a cl_program holds and the helpers the program, build and kernel
// files share. A program's binary is SPIR-V (runtime/spirv_edit.h adds markers for its
// kind); its executable is a loaded spvsim::Program.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/interfaces.h"
#include "runtime/spirv_edit.h"
#include "src/exec/program.h"

namespace spvsim::rt {

// How the program was made: it decides which of build, compile and link apply.
enum class ProgramOrigin { Source, IL, Binary, Linked, BuiltIn };

// What a successful build, compile or link left (guarded by the program's mutex).
struct ProgramState {
  cl_build_status status = CL_BUILD_NONE;
  bool busy = false;  // a build, compile or link of this program is running
  std::string options, log;
  cl_program_binary_type binaryType = CL_PROGRAM_BINARY_TYPE_NONE;
  std::vector<uint32_t> binary;  // compiled object, library or executable (with markers)
  bool uniformWorkGroups = false;
  std::shared_ptr<Program> executable;  // after a successful build or link
};

}  // namespace spvsim::rt

struct _cl_program : spvsim::rt::Object {
  _cl_program() : Object(spvsim::rt::Kind::Program) {}
  ~_cl_program();                // releases the context
  cl_context context = nullptr;  // retained
  spvsim::rt::ProgramOrigin origin = spvsim::rt::ProgramOrigin::Source;
  std::string source;                                         // Source
  std::vector<uint8_t> il;                                    // IL: the bytes as given
  std::map<uint32_t, spvsim::rt::SpecConstantInfo> specInfo;  // IL: by SpecId

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
