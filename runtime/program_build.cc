// clBuildProgram, clCompileProgram and clLinkProgram. Builds run synchronously on the
// calling thread (a notify callback, when given, is called before the call returns).
#include <algorithm>
#include <cstring>

#include "runtime/program.h"
#include "runtime/program_api.h"
#include "runtime/program_compiler.h"

namespace spvsim::rt {
namespace {

using Notify = void(CL_CALLBACK*)(cl_program, void*);

// Marks a program busy for a build or compile; CL_INVALID_OPERATION while another one
// runs or kernels are attached (no changes to an executable that kernels use).
cl_int beginBuild(_cl_program* p, const std::string& options) {
  std::lock_guard<std::mutex> lock(p->mutex);
  if (p->state.busy || p->kernelCount.load() > 0) return CL_INVALID_OPERATION;
  p->state.busy = true;
  p->state.status = CL_BUILD_IN_PROGRESS;
  p->state.options = options;
  return CL_SUCCESS;
}

// Publishes a build's result and the sources it was made from; a failed one leaves no
// binary, no executable and no sources.
cl_int finishBuild(_cl_program* p, BuildResult r, std::vector<ProgramSource> sources = {}) {
  std::lock_guard<std::mutex> lock(p->mutex);
  ProgramState& s = p->state;
  s.sources = r.error == CL_SUCCESS ? std::move(sources) : std::vector<ProgramSource>{};
  s.busy = false;
  s.status = r.error == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  s.log = std::move(r.log);
  s.binary = r.error == CL_SUCCESS ? std::move(r.binary) : std::vector<uint32_t>{};
  s.facts = r.error == CL_SUCCESS ? std::move(r.facts) : ProgramFacts{};
  s.parses = r.parses;
  s.executable = std::move(r.executable);
  return r.error;
}

// The IL as creation loaded it, with the values clSetProgramSpecializationConstant set
// written where creation found the constants.
std::vector<uint32_t> specializedIL(_cl_program* p) {
  std::lock_guard<std::mutex> lock(p->mutex);
  return specialize(p->ilModule.words, p->ilModule.specConstants, p->specValues);
}

BuildResult buildFor(_cl_program* p, const std::string& options) {
  switch (p->origin) {
    case ProgramOrigin::Source:
      return buildSource(p->source, options);
    case ProgramOrigin::IL:
      return buildIL(specializedIL(p), options);
    default: {
      std::lock_guard<std::mutex> lock(p->mutex);
      return buildBinary(p->state.binary, p->state.facts.uniformWorkGroups);
    }
  }
}

// The embedded headers of clCompileProgram, or an error code.
cl_int collectHeaders(cl_uint count, const cl_program* programs, const char** names,
                      std::vector<compiler::SourceHeader>& out) {
  if ((count == 0) != (programs == nullptr) || (count == 0) != (names == nullptr))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < count; ++i) {
    _cl_program* h = checked<_cl_program>(programs[i], Kind::Program);
    if (!h) return CL_INVALID_PROGRAM;
    if (!names[i]) return CL_INVALID_VALUE;
    out.push_back({names[i], h->origin == ProgramOrigin::Source ? h->source : ""});
  }
  return CL_SUCCESS;
}

// The link inputs' binaries, or an error code: every input must hold a compiled object
// or a library; when none holds anything there is nothing to link (empty result).
cl_int collectLinkInputs(cl_context context, cl_uint count, const cl_program* programs,
                         std::vector<LinkInput>& out) {
  size_t withBinary = 0;
  for (cl_uint i = 0; i < count; ++i) {
    _cl_program* in = checked<_cl_program>(programs[i], Kind::Program);
    if (!in) return CL_INVALID_PROGRAM;
    if (in->context != context) return CL_INVALID_CONTEXT;
    std::lock_guard<std::mutex> lock(in->mutex);
    const ProgramState& s = in->state;
    if (s.busy) return CL_INVALID_OPERATION;
    const cl_program_binary_type type = s.facts.binaryType;
    if (type == CL_PROGRAM_BINARY_TYPE_NONE) continue;
    if (type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && type != CL_PROGRAM_BINARY_TYPE_LIBRARY)
      return CL_INVALID_OPERATION;
    out.push_back({s.binary, s.facts.uniformWorkGroups, s.sources});
    ++withBinary;
  }
  if (withBinary != 0 && withBinary != count) return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}

cl_int checkBuildCall(_cl_program* p, cl_uint numDevices, const cl_device_id* devices,
                      Notify notify, void* userData) {
  if (!p) return CL_INVALID_PROGRAM;
  if (cl_int err = checkDeviceList(p->context, numDevices, devices); err != CL_SUCCESS) return err;
  if (!notify && userData) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

}  // namespace

cl_int clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                      const char* options, Notify pfn_notify, void* user_data) {
  _cl_program* p = checked<_cl_program>(program, Kind::Program);
  if (cl_int err = checkBuildCall(p, num_devices, device_list, pfn_notify, user_data)) return err;
  if (p->origin != ProgramOrigin::Source && p->origin != ProgramOrigin::IL &&
      p->origin != ProgramOrigin::Binary)
    return CL_INVALID_OPERATION;
  const std::string opts = options ? options : "";
  if (cl_int err = beginBuild(p, opts)) return err;
  std::vector<ProgramSource> sources;
  if (p->origin == ProgramOrigin::Source) sources.push_back({p->source, opts, {}, false});
  const cl_int result = finishBuild(p, buildFor(p, opts), std::move(sources));
  if (pfn_notify) pfn_notify(p, user_data);
  return result;
}

cl_int clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                        const char* options, cl_uint num_input_headers,
                        const cl_program* input_headers, const char** header_include_names,
                        Notify pfn_notify, void* user_data) {
  _cl_program* p = checked<_cl_program>(program, Kind::Program);
  if (cl_int err = checkBuildCall(p, num_devices, device_list, pfn_notify, user_data)) return err;
  std::vector<compiler::SourceHeader> headers;
  if (cl_int err = collectHeaders(num_input_headers, input_headers, header_include_names, headers))
    return err;
  if (p->origin != ProgramOrigin::Source && p->origin != ProgramOrigin::IL)
    return CL_INVALID_OPERATION;
  const std::string opts = options ? options : "";
  if (cl_int err = beginBuild(p, opts)) return err;
  BuildResult r = p->origin == ProgramOrigin::Source ? compileSource(p->source, opts, headers)
                                                     : compileIL(specializedIL(p), opts);
  std::vector<ProgramSource> sources;
  if (p->origin == ProgramOrigin::Source)
    sources.push_back({p->source, opts, std::move(headers), true});
  const cl_int result = finishBuild(p, std::move(r), std::move(sources));
  if (pfn_notify) pfn_notify(p, user_data);
  return result;
}

cl_program clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                         const char* options, cl_uint num_input_programs,
                         const cl_program* input_programs, Notify pfn_notify, void* user_data,
                         cl_int* errcode_ret) {
  _cl_context* c = checked<_cl_context>(context, Kind::Context);
  if (!c) return withError<cl_program>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  if (cl_int err = checkDeviceList(c, num_devices, device_list))
    return withError<cl_program>(errcode_ret, err, nullptr);
  if (num_input_programs == 0 || !input_programs || (!pfn_notify && user_data))
    return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  const std::string opts = options ? options : "";
  LinkOptions linkOptions;
  if (!parseLinkOptions(opts, linkOptions))
    return withError<cl_program>(errcode_ret, CL_INVALID_LINKER_OPTIONS, nullptr);
  std::vector<LinkInput> inputs;
  if (cl_int err = collectLinkInputs(c, num_input_programs, input_programs, inputs))
    return withError<cl_program>(errcode_ret, err, nullptr);
  _cl_program* p = newProgram(c, ProgramOrigin::Linked);
  cl_int result = CL_SUCCESS;
  if (!inputs.empty()) {  // else nothing to link: a program without an executable
    beginBuild(p, opts);  // a new program: never busy
    std::vector<ProgramSource> sources;
    for (LinkInput& in : inputs)
      for (ProgramSource& s : in.sources) sources.push_back(std::move(s));
    result = finishBuild(p, linkPrograms(inputs, linkOptions), std::move(sources));
  }
  if (pfn_notify) pfn_notify(p, user_data);
  return withError<cl_program>(errcode_ret, result, p);
}

cl_int clUnloadCompiler(void) { return CL_SUCCESS; }  // clang runs as a process per build

cl_int clUnloadPlatformCompiler(cl_platform_id platform) {
  if (!checked<_cl_platform_id>(platform, Kind::Platform)) return CL_INVALID_PLATFORM;
  return CL_SUCCESS;
}

}  // namespace spvsim::rt
