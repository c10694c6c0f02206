// Creating, retaining and querying program objects.
#include "runtime/program.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "runtime/program_api.h"
#include "spirv/error.h"
#include "spirv/loader.h"

_cl_program::~_cl_program() { spvsim::rt::release(context); }

namespace spvsim::rt {
namespace {

constexpr uint32_t kMagic = 0x07230203, kSwappedMagic = 0x03022307;

_cl_context* liveContext(cl_context c) { return checked<_cl_context>(c, Kind::Context); }

// SPIR-V words from application bytes, byte-swapped to host order when the module was
// written big-endian; empty when the bytes cannot be SPIR-V.
std::vector<uint32_t> spirvWords(const void* bytes, size_t length) {
  if (!bytes || length < 20 || length % 4 != 0) return {};
  std::vector<uint32_t> w(length / 4);
  std::memcpy(w.data(), bytes, length);
  if (w[0] == kSwappedMagic)
    for (uint32_t& x : w) x = __builtin_bswap32(x);
  if (w[0] != kMagic) return {};
  return w;
}

// A module an application gave (IL or a binary), split from this ICD's markers and
// loaded: the creation's one pass over it. `module` is nullopt when the loader refused
// it; one it refused as using something spvsim does not execute is still well-formed
// SPIR-V (its build fails instead).
struct Checked {
  bool wellFormed = false;
  BinaryMarkers markers;
  std::vector<uint32_t> words;  // without markers
  std::optional<spirv::Module> module;
  ParseCount parses;
};
Checked checkModule(const std::vector<uint32_t>& words) {
  if (words.empty()) return {};
  Checked c;
  MarkedModule split = splitMarkers(words);
  c.markers = split.markers;
  c.words = std::move(split.words);
  c.parses.leading = 1;
  try {
    // The OpenCL rule against recursion is the build's to refuse, with a log saying why
    // (runtime/program_compiler.cc): the module is well-formed SPIR-V.
    spirv::LoadOptions options;
    options.refuseRecursion = false;
    c.parses.loads = 1;
    c.module = spirv::loadModule(c.words, options);
    c.wellFormed = true;
  } catch (const Error& e) {
    c.wellFormed = e.kind() == DiagnosticKind::Unsupported;
  }
  return c;
}

// What creation keeps of a loaded module. A module spvsim cannot load keeps its words
// (its build fails with the loader's message).
ImportedModule imported(const Checked& c) {
  ImportedModule m;
  if (!c.module) {
    m.words = c.words;
    m.facts.version = c.words.size() > 1 ? c.words[1] : 0;
    return m;
  }
  m.words = c.module->words;
  m.specConstants = specConstants(*c.module);
  m.facts.version = c.module->version;
  return m;
}

// The binary's kind: its marker, else guessed from the module (unresolved imports or
// no kernels: a compiled object).
BinaryKind kindOf(const BinaryMarkers& markers, const std::optional<spirv::Module>& module) {
  if (markers.kind) return *markers.kind;
  if (!module) return BinaryKind::Executable;
  const bool imports = std::any_of(module->functions.begin(), module->functions.end(),
                                   [](const spirv::Function& f) { return f.isImport; });
  return imports || module->entryPoints.empty() ? BinaryKind::CompiledObject
                                                : BinaryKind::Executable;
}

cl_program_binary_type binaryTypeOf(BinaryKind k) {
  switch (k) {
    case BinaryKind::CompiledObject:
      return CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    case BinaryKind::Library:
      return CL_PROGRAM_BINARY_TYPE_LIBRARY;
    case BinaryKind::Executable:
      break;
  }
  return CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

// The markers a binary of these facts leaves the ICD with.
BinaryMarkers markersOf(const ProgramFacts& f) {
  BinaryMarkers m;
  m.uniformWorkGroups = f.uniformWorkGroups;
  switch (f.binaryType) {
    case CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT:
      m.kind = BinaryKind::CompiledObject;
      break;
    case CL_PROGRAM_BINARY_TYPE_LIBRARY:
      m.kind = BinaryKind::Library;
      break;
    case CL_PROGRAM_BINARY_TYPE_EXECUTABLE:
      m.kind = BinaryKind::Executable;
      break;
    default:
      break;
  }
  return m;
}

std::string concatenateSources(cl_uint count, const char** strings, const size_t* lengths) {
  std::string source;
  for (cl_uint i = 0; i < count; ++i) {
    if (lengths && lengths[i] > 0)
      source.append(strings[i], lengths[i]);
    else
      source.append(strings[i]);
  }
  // CL_PROGRAM_SOURCE "strips any nulls in the original source strings".
  source.erase(std::remove(source.begin(), source.end(), '\0'), source.end());
  return source;
}

cl_program createFromBinary(_cl_context* context, const Checked& checked) {
  ImportedModule m = imported(checked);
  _cl_program* p = newProgram(context, ProgramOrigin::Binary);
  p->state.binary = std::move(m.words);
  p->state.facts = std::move(m.facts);
  p->state.facts.binaryType = binaryTypeOf(kindOf(checked.markers, checked.module));
  p->state.facts.uniformWorkGroups = checked.markers.uniformWorkGroups;
  p->state.parses = checked.parses;
  return p;
}

// CL_PROGRAM_BINARY_SIZES: the binary with the markers that say its kind.
size_t binaryBytes(const ProgramState& s) {
  if (s.binary.empty()) return 0;
  return (s.binary.size() + markerWordCount(markersOf(s.facts))) * 4;
}

// CL_PROGRAM_BINARIES: the caller's array of one pointer per device.
cl_int returnBinaries(const ProgramState& s, size_t valueSize, void* value, size_t* sizeRet) {
  const size_t bytes = sizeof(unsigned char*);  // one device
  if (value) {
    if (valueSize < bytes) return CL_INVALID_VALUE;
    unsigned char* target = static_cast<unsigned char**>(value)[0];
    if (target && !s.binary.empty()) {
      const std::vector<uint32_t> marked = withMarkers(s.binary, markersOf(s.facts));
      std::memcpy(target, marked.data(), marked.size() * 4);
    }
  }
  if (sizeRet) *sizeRet = bytes;
  return CL_SUCCESS;
}

std::string kernelNames(const ProgramFacts& facts) {
  std::string names;
  for (const std::string& name : facts.kernelNames) names += (names.empty() ? "" : ";") + name;
  return names;
}

size_t globalVariableBytes(const std::shared_ptr<Program>& executable) {
  size_t total = 0;
  if (executable)
    for (const auto& v : executable->globalVariables()) total += v.storage.size();
  return total;
}

}  // namespace

_cl_program* newProgram(cl_context context, ProgramOrigin origin) {
  auto* p = new _cl_program;
  p->context = context;
  retain(context);
  p->origin = origin;
  return registerObject(p);
}

bool contextHasDevice(cl_context context, cl_device_id device) {
  const auto& d = context->devices;
  return device && std::find(d.begin(), d.end(), device) != d.end();
}

cl_int checkDeviceList(cl_context context, cl_uint numDevices, const cl_device_id* devices) {
  if ((numDevices == 0) != (devices == nullptr)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < numDevices; ++i)
    if (!checked<_cl_device_id>(devices[i], Kind::Device) || !contextHasDevice(context, devices[i]))
      return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

std::shared_ptr<Program> executableOf(_cl_program* program) {
  std::lock_guard<std::mutex> lock(program->mutex);
  return program->state.executable;
}

bool requiresUniformWorkGroups(_cl_program* program) {
  std::lock_guard<std::mutex> lock(program->mutex);
  return program->state.facts.uniformWorkGroups;
}

cl_program clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                     const size_t* lengths, cl_int* errcode_ret) {
  _cl_context* c = liveContext(context);
  if (!c) return withError<cl_program>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  if (count == 0 || !strings || std::any_of(strings, strings + count, [](auto s) { return !s; }))
    return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  _cl_program* p = newProgram(c, ProgramOrigin::Source);
  p->source = concatenateSources(count, strings, lengths);
  return withError<cl_program>(errcode_ret, CL_SUCCESS, p);
}

cl_program clCreateProgramWithIL(cl_context context, const void* il, size_t length,
                                 cl_int* errcode_ret) {
  _cl_context* c = liveContext(context);
  if (!c) return withError<cl_program>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  const std::vector<uint32_t> words = spirvWords(il, length);
  const Checked checked = checkModule(words);
  if (!checked.wellFormed) return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  _cl_program* p = newProgram(c, ProgramOrigin::IL);
  p->il.assign(static_cast<const uint8_t*>(il), static_cast<const uint8_t*>(il) + length);
  p->ilModule = imported(checked);
  p->state.parses = checked.parses;
  return withError<cl_program>(errcode_ret, CL_SUCCESS, p);
}

cl_program clCreateProgramWithILKHR(cl_context context, const void* il, size_t length,
                                    cl_int* errcode_ret) {
  return rt::clCreateProgramWithIL(context, il, length, errcode_ret);
}

cl_program clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                     const cl_device_id* device_list, const size_t* lengths,
                                     const unsigned char** binaries, cl_int* binary_status,
                                     cl_int* errcode_ret) {
  _cl_context* c = liveContext(context);
  if (!c) return withError<cl_program>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  if (!device_list || num_devices == 0)
    return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  if (cl_int err = checkDeviceList(c, num_devices, device_list); err != CL_SUCCESS)
    return withError<cl_program>(errcode_ret, err, nullptr);
  if (!lengths || !binaries) return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  cl_int result = CL_SUCCESS;
  Checked module;  // the first device's (there is one device)
  for (cl_uint i = 0; i < num_devices; ++i) {
    cl_int status = CL_SUCCESS;
    if (lengths[i] == 0 || !binaries[i]) {
      status = CL_INVALID_VALUE;
    } else {
      Checked m = checkModule(spirvWords(binaries[i], lengths[i]));
      if (!m.wellFormed) status = CL_INVALID_BINARY;
      if (i == 0) module = std::move(m);
    }
    if (binary_status) binary_status[i] = status;
    if (status != CL_SUCCESS && result == CL_SUCCESS) result = status;
  }
  if (result != CL_SUCCESS) return withError<cl_program>(errcode_ret, result, nullptr);
  return withError(errcode_ret, CL_SUCCESS, createFromBinary(c, module));
}

cl_program clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                             const cl_device_id* device_list,
                                             const char* kernel_names, cl_int* errcode_ret) {
  _cl_context* c = liveContext(context);
  if (!c) return withError<cl_program>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  if (!device_list || num_devices == 0)
    return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  if (cl_int err = checkDeviceList(c, num_devices, device_list); err != CL_SUCCESS)
    return withError<cl_program>(errcode_ret, err, nullptr);
  // The device has no built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty), so every
  // list names one it does not support.
  (void)kernel_names;
  return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
}

cl_int clRetainProgram(cl_program program) {
  _cl_program* p = checked<_cl_program>(program, Kind::Program);
  return p && retainHandle(p) ? CL_SUCCESS : CL_INVALID_PROGRAM;
}

cl_int clReleaseProgram(cl_program program) {
  _cl_program* p = checked<_cl_program>(program, Kind::Program);
  return p && releaseHandle(p) ? CL_SUCCESS : CL_INVALID_PROGRAM;
}

cl_int clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size,
                        void* param_value, size_t* param_value_size_ret) {
  _cl_program* p = checked<_cl_program>(program, Kind::Program);
  if (!p) return CL_INVALID_PROGRAM;
  const size_t size = param_value_size;
  void* value = param_value;
  size_t* sizeRet = param_value_size_ret;
  std::lock_guard<std::mutex> lock(p->mutex);
  const ProgramState& s = p->state;
  switch (param_name) {
    case CL_PROGRAM_REFERENCE_COUNT:
      return returnValue(cl_uint{p->refs.load()}, size, value, sizeRet);
    case CL_PROGRAM_CONTEXT:
      return returnValue(p->context, size, value, sizeRet);
    case CL_PROGRAM_NUM_DEVICES:
      return returnValue(static_cast<cl_uint>(p->context->devices.size()), size, value, sizeRet);
    case CL_PROGRAM_DEVICES:
      return returnVector(p->context->devices, size, value, sizeRet);
    case CL_PROGRAM_SOURCE:
      return returnString(p->origin == ProgramOrigin::Source ? p->source : "", size, value,
                          sizeRet);
    case CL_PROGRAM_IL:
      return returnVector(p->il, size, value, sizeRet);
    case CL_PROGRAM_BINARY_SIZES:
      return returnVector(std::vector<size_t>{binaryBytes(s)}, size, value, sizeRet);
    case CL_PROGRAM_BINARIES:
      return returnBinaries(s, size, value, sizeRet);
    case CL_PROGRAM_NUM_KERNELS:
      if (!s.executable) return CL_INVALID_PROGRAM_EXECUTABLE;
      return returnValue(s.facts.kernelNames.size(), size, value, sizeRet);
    case CL_PROGRAM_KERNEL_NAMES:
      if (!s.executable) return CL_INVALID_PROGRAM_EXECUTABLE;
      return returnString(kernelNames(s.facts), size, value, sizeRet);
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:  // OpenCL C has no such constructors
      return returnValue(cl_bool{CL_FALSE}, size, value, sizeRet);
    default:
      return CL_INVALID_VALUE;
  }
}

cl_int clGetProgramBuildInfo(cl_program program, cl_device_id device,
                             cl_program_build_info param_name, size_t param_value_size,
                             void* param_value, size_t* param_value_size_ret) {
  _cl_program* p = checked<_cl_program>(program, Kind::Program);
  if (!p) return CL_INVALID_PROGRAM;
  if (!checked<_cl_device_id>(device, Kind::Device) || !contextHasDevice(p->context, device))
    return CL_INVALID_DEVICE;
  const size_t size = param_value_size;
  void* value = param_value;
  size_t* sizeRet = param_value_size_ret;
  std::lock_guard<std::mutex> lock(p->mutex);
  const ProgramState& s = p->state;
  switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS:
      return returnValue(s.status, size, value, sizeRet);
    case CL_PROGRAM_BUILD_OPTIONS:
      return returnString(s.status == CL_BUILD_NONE ? "" : s.options, size, value, sizeRet);
    case CL_PROGRAM_BUILD_LOG:
      return returnString(s.status == CL_BUILD_NONE ? "" : s.log, size, value, sizeRet);
    case CL_PROGRAM_BINARY_TYPE:
      return returnValue(s.facts.binaryType, size, value, sizeRet);
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
      return returnValue(globalVariableBytes(s.executable), size, value, sizeRet);
    default:
      return CL_INVALID_VALUE;
  }
}

cl_int clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size,
                                          const void* spec_value) {
  _cl_program* p = checked<_cl_program>(program, Kind::Program);
  if (!p || p->origin != ProgramOrigin::IL) return CL_INVALID_PROGRAM;
  auto it = p->ilModule.specConstants.find(spec_id);
  if (it == p->ilModule.specConstants.end()) return CL_INVALID_SPEC_ID;
  if (!spec_value || spec_size != it->second.bytes) return CL_INVALID_VALUE;
  const auto* bytes = static_cast<const uint8_t*>(spec_value);
  std::lock_guard<std::mutex> lock(p->mutex);
  p->specValues[spec_id].assign(bytes, bytes + spec_size);
  return CL_SUCCESS;
}

cl_int clSetProgramReleaseCallback(cl_program program,
                                   void(CL_CALLBACK* pfn_notify)(cl_program program,
                                                                 void* user_data),
                                   void* user_data) {
  (void)user_data;
  if (!checked<_cl_program>(program, Kind::Program)) return CL_INVALID_PROGRAM;
  if (!pfn_notify) return CL_INVALID_VALUE;
  // OpenCL 3.0: the device does not support program-scope global constructors and
  // destructors (CL_PROGRAM_SCOPE_GLOBAL_*TORS_PRESENT are false), which makes this
  // deprecated entry point CL_INVALID_OPERATION.
  return CL_INVALID_OPERATION;
}

}  // namespace spvsim::rt
