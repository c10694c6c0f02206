// libspvsim-layer.so: an OpenCL layer (the Khronos loader's and ocl-icd 2.3's layer API,
// CL/cl_layer.h) loaded with OPENCL_LAYERS=/path/libspvsim-layer.so over any driver. It
// forwards every call to the driver; the calls that create programs, kernels and memory
// objects and set arguments are also recorded (runtime/layer/records.h), and
// clEnqueueNDRangeKernel and clEnqueueTask are shadowed on spvsim
// (runtime/layer/shadow.h).
//
// The loader calls plain functions, so the layer's state is the process's: one Shadow,
// made by clInitLayer (which the loader calls once, before any other call) and kept to
// the end of the process, whose summary is written at exit.
#include <CL/cl_layer.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "runtime/diagnostic_output.h"
#include "runtime/knobs.h"
#include "runtime/layer/binary_sources.h"
#include "runtime/layer/images.h"
#include "runtime/layer/shadow.h"

namespace spvsim::layer {
namespace {

// The loader's table below the layer, copied whole: loaders' tables have as many entries
// as the loader knows (ocl-icd 2.3.2 fewer than these headers), the rest stays null.
cl_icd_dispatch targetTable{};
const cl_icd_dispatch* target = &targetTable;
Shadow* shadow = nullptr;  // never destroyed: the driver may call back during exit
const BinarySources* binarySources = nullptr;
cl_icd_dispatch table{};

void writeSummary() { rt::writeDiagnosticText(shadow->summary()); }

// An object's reference count before a release (0 when the driver does not say): the
// record goes with the last reference.
template <class Info, class Object>
cl_uint referenceCount(Info info, Object object, cl_uint param) {
  cl_uint count = 0;
  return info && info(object, param, sizeof count, &count, nullptr) == CL_SUCCESS ? count : 0;
}

// --- programs ---

cl_program CL_API_CALL createProgramWithSource(cl_context context, cl_uint count,
                                               const char** strings, const size_t* lengths,
                                               cl_int* errcode) {
  cl_program p = target->clCreateProgramWithSource(context, count, strings, lengths, errcode);
  if (!p) return p;
  ProgramRecord r;
  r.origin = ProgramRecord::Origin::Source;
  for (cl_uint i = 0; i < count; ++i)
    r.source += lengths && lengths[i] ? std::string(strings[i], lengths[i]) : strings[i];
  shadow->records().program(p, std::move(r));
  return p;
}

cl_program CL_API_CALL createProgramWithIL(cl_context context, const void* il, size_t length,
                                           cl_int* errcode) {
  cl_program p = target->clCreateProgramWithIL(context, il, length, errcode);
  if (!p) return p;
  ProgramRecord r;
  r.origin = ProgramRecord::Origin::IL;
  const auto* bytes = static_cast<const uint8_t*>(il);
  r.il.assign(bytes, bytes + length);
  shadow->records().program(p, std::move(r));
  return p;
}

cl_program CL_API_CALL createProgramWithBinary(cl_context context, cl_uint numDevices,
                                               const cl_device_id* devices, const size_t* lengths,
                                               const unsigned char** binaries, cl_int* status,
                                               cl_int* errcode) {
  cl_program p = target->clCreateProgramWithBinary(context, numDevices, devices, lengths, binaries,
                                                   status, errcode);
  if (!p) return p;
  // A binary the layer saw built from source (an application's binary cache).
  std::optional<ProgramRecord> known;
  if (numDevices > 0 && lengths && binaries) known = binarySources->recall(binaries[0], lengths[0]);
  if (known) {
    known->built = false;
    shadow->records().program(p, std::move(*known));
  } else {
    shadow->records().program(
        p, {ProgramRecord::Origin::Other,
            "a device binary the layer did not see built (an application's binary cache "
            "filled without the layer: for PyOpenCL, empty ~/.cache/pyopencl or set "
            "PYOPENCL_NO_CACHE)"});
  }
  return p;
}

cl_program CL_API_CALL createProgramWithBuiltInKernels(cl_context context, cl_uint numDevices,
                                                       const cl_device_id* devices,
                                                       const char* names, cl_int* errcode) {
  cl_program p =
      target->clCreateProgramWithBuiltInKernels(context, numDevices, devices, names, errcode);
  if (p) shadow->records().program(p, {ProgramRecord::Origin::Other, "built-in kernels"});
  return p;
}

cl_program CL_API_CALL linkProgram(cl_context context, cl_uint numDevices,
                                   const cl_device_id* devices, const char* options,
                                   cl_uint numPrograms, const cl_program* programs,
                                   void(CL_CALLBACK* notify)(cl_program, void*), void* data,
                                   cl_int* errcode) {
  cl_program p = target->clLinkProgram(context, numDevices, devices, options, numPrograms, programs,
                                       notify, data, errcode);
  if (p) shadow->records().program(p, {ProgramRecord::Origin::Other, "clLinkProgram"});
  return p;
}

cl_int CL_API_CALL buildProgram(cl_program program, cl_uint numDevices, const cl_device_id* devices,
                                const char* options, void(CL_CALLBACK* notify)(cl_program, void*),
                                void* data) {
  const cl_int err = target->clBuildProgram(program, numDevices, devices, options, notify, data);
  if (err == CL_SUCCESS) shadow->records().built(program, options);
  return err;
}

// The application reads a program's binaries (to cache them): remember where each came from.
void rememberBinaries(cl_program program, unsigned char* const* binaries, size_t count) {
  const std::optional<ProgramRecord> record = shadow->records().programOf(program);
  cl_uint devices = 0;
  if (!record || target->clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof devices, &devices,
                                          nullptr) != CL_SUCCESS)
    return;
  std::vector<size_t> sizes(devices);
  if (target->clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizes.size() * sizeof(size_t),
                               sizes.data(), nullptr) != CL_SUCCESS)
    return;
  for (size_t i = 0; i < count && i < sizes.size(); ++i)
    binarySources->remember(binaries[i], sizes[i], *record);
}

cl_int CL_API_CALL getProgramInfo(cl_program program, cl_program_info param, size_t size,
                                  void* value, size_t* sizeRet) {
  const cl_int err = target->clGetProgramInfo(program, param, size, value, sizeRet);
  if (err == CL_SUCCESS && param == CL_PROGRAM_BINARIES && value)
    rememberBinaries(program, static_cast<unsigned char* const*>(value),
                     size / sizeof(unsigned char*));
  return err;
}

cl_int CL_API_CALL releaseProgram(cl_program program) {
  const cl_uint count =
      referenceCount(target->clGetProgramInfo, program, CL_PROGRAM_REFERENCE_COUNT);
  const cl_int err = target->clReleaseProgram(program);
  if (err == CL_SUCCESS && count == 1) shadow->records().dropProgram(program);
  return err;
}

// --- kernels ---

cl_kernel CL_API_CALL createKernel(cl_program program, const char* name, cl_int* errcode) {
  cl_kernel k = target->clCreateKernel(program, name, errcode);
  if (k) shadow->records().kernel(k, program, name);
  return k;
}

std::string kernelName(cl_kernel k) {
  size_t size = 0;
  if (target->clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &size) != CL_SUCCESS)
    return "";
  std::string name(size, '\0');
  target->clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, size, name.data(), nullptr);
  while (!name.empty() && name.back() == '\0') name.pop_back();
  return name;
}

cl_int CL_API_CALL createKernelsInProgram(cl_program program, cl_uint count, cl_kernel* kernels,
                                          cl_uint* countRet) {
  cl_uint made = 0;
  const cl_int err = target->clCreateKernelsInProgram(program, count, kernels, &made);
  if (countRet) *countRet = made;
  for (cl_uint i = 0; err == CL_SUCCESS && kernels && i < made; ++i)
    shadow->records().kernel(kernels[i], program, kernelName(kernels[i]));
  return err;
}

cl_kernel CL_API_CALL cloneKernel(cl_kernel source, cl_int* errcode) {
  cl_kernel k = target->clCloneKernel(source, errcode);
  if (k) shadow->records().clone(source, k);
  return k;
}

cl_int CL_API_CALL setKernelArg(cl_kernel kernel, cl_uint index, size_t size, const void* value) {
  const cl_int err = target->clSetKernelArg(kernel, index, size, value);
  if (err != CL_SUCCESS) return err;
  ArgRecord a;
  if (value) {
    a.kind = ArgRecord::Kind::Bytes;
    const auto* bytes = static_cast<const uint8_t*>(value);
    a.bytes.assign(bytes, bytes + size);
  } else {
    a.kind = ArgRecord::Kind::Local;  // a local pointer's size (or a NULL buffer, as size 8)
    a.size = size;
    if (size == sizeof(cl_mem)) a.bytes.assign(sizeof(cl_mem), 0);
  }
  shadow->records().arg(kernel, index, std::move(a));
  return err;
}

cl_int CL_API_CALL setKernelArgSVMPointer(cl_kernel kernel, cl_uint index, const void* value) {
  const cl_int err = target->clSetKernelArgSVMPointer(kernel, index, value);
  if (err == CL_SUCCESS) shadow->records().arg(kernel, index, {ArgRecord::Kind::Svm, {}, 0});
  return err;
}

cl_int CL_API_CALL releaseKernel(cl_kernel kernel) {
  const cl_uint count = referenceCount(target->clGetKernelInfo, kernel, CL_KERNEL_REFERENCE_COUNT);
  const cl_int err = target->clReleaseKernel(kernel);
  if (err == CL_SUCCESS && count == 1) shadow->records().dropKernel(kernel);
  return err;
}

// --- memory objects ---

cl_mem CL_API_CALL createBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host,
                                cl_int* errcode) {
  cl_mem m = target->clCreateBuffer(context, flags, size, host, errcode);
  if (m) shadow->records().mem(m, {size, flags, true, nullptr, 0});
  return m;
}

cl_mem CL_API_CALL createBufferWithProperties(cl_context context,
                                              const cl_mem_properties* properties,
                                              cl_mem_flags flags, size_t size, void* host,
                                              cl_int* errcode) {
  cl_mem m = target->clCreateBufferWithProperties(context, properties, flags, size, host, errcode);
  if (m) shadow->records().mem(m, {size, flags, true, nullptr, 0});
  return m;
}

cl_mem CL_API_CALL createSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type,
                                   const void* info, cl_int* errcode) {
  cl_mem m = target->clCreateSubBuffer(buffer, flags, type, info, errcode);
  if (m && type == CL_BUFFER_CREATE_TYPE_REGION) {
    const auto* region = static_cast<const cl_buffer_region*>(info);
    shadow->records().mem(m, {region->size, flags, true, buffer, region->origin});
  }
  return m;
}

void recordImage(cl_mem m, cl_mem_flags flags, const cl_image_format* format,
                 const cl_image_desc* desc) {
  if (!m || !format || !desc) return;
  MemRecord r;
  r.buffer = false;
  r.image = true;
  r.flags = flags;
  r.format = *format;
  r.desc = *desc;
  r.size = packedBytes(*format, *desc);
  shadow->records().mem(m, r);
}

cl_mem CL_API_CALL createImage(cl_context context, cl_mem_flags flags,
                               const cl_image_format* format, const cl_image_desc* desc, void* host,
                               cl_int* errcode) {
  cl_mem m = target->clCreateImage(context, flags, format, desc, host, errcode);
  recordImage(m, flags, format, desc);
  return m;
}

cl_mem CL_API_CALL createImageWithProperties(cl_context context,
                                             const cl_mem_properties* properties,
                                             cl_mem_flags flags, const cl_image_format* format,
                                             const cl_image_desc* desc, void* host,
                                             cl_int* errcode) {
  cl_mem m =
      target->clCreateImageWithProperties(context, properties, flags, format, desc, host, errcode);
  recordImage(m, flags, format, desc);
  return m;
}

// OpenCL 1.1's image calls, as clCreateImage descriptions.
cl_mem CL_API_CALL createImage2D(cl_context context, cl_mem_flags flags,
                                 const cl_image_format* format, size_t width, size_t height,
                                 size_t rowPitch, void* host, cl_int* errcode) {
  cl_mem m =
      target->clCreateImage2D(context, flags, format, width, height, rowPitch, host, errcode);
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = width;
  desc.image_height = height;
  recordImage(m, flags, format, &desc);
  return m;
}

cl_mem CL_API_CALL createImage3D(cl_context context, cl_mem_flags flags,
                                 const cl_image_format* format, size_t width, size_t height,
                                 size_t depth, size_t rowPitch, size_t slicePitch, void* host,
                                 cl_int* errcode) {
  cl_mem m = target->clCreateImage3D(context, flags, format, width, height, depth, rowPitch,
                                     slicePitch, host, errcode);
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE3D;
  desc.image_width = width;
  desc.image_height = height;
  desc.image_depth = depth;
  recordImage(m, flags, format, &desc);
  return m;
}

// --- samplers ---

cl_sampler CL_API_CALL createSampler(cl_context context, cl_bool normalized,
                                     cl_addressing_mode addressing, cl_filter_mode filter,
                                     cl_int* errcode) {
  cl_sampler s = target->clCreateSampler(context, normalized, addressing, filter, errcode);
  if (s) shadow->records().sampler(s, {normalized, addressing, filter});
  return s;
}

cl_sampler CL_API_CALL createSamplerWithProperties(cl_context context,
                                                   const cl_sampler_properties* properties,
                                                   cl_int* errcode) {
  cl_sampler s = target->clCreateSamplerWithProperties(context, properties, errcode);
  if (!s) return s;
  SamplerRecord r;
  for (size_t i = 0; properties && properties[i]; i += 2) {
    if (properties[i] == CL_SAMPLER_NORMALIZED_COORDS) r.normalized = properties[i + 1] != 0;
    if (properties[i] == CL_SAMPLER_ADDRESSING_MODE)
      r.addressing = static_cast<cl_addressing_mode>(properties[i + 1]);
    if (properties[i] == CL_SAMPLER_FILTER_MODE)
      r.filter = static_cast<cl_filter_mode>(properties[i + 1]);
  }
  shadow->records().sampler(s, r);
  return s;
}

cl_int CL_API_CALL releaseSampler(cl_sampler sampler) {
  const cl_uint count =
      referenceCount(target->clGetSamplerInfo, sampler, CL_SAMPLER_REFERENCE_COUNT);
  const cl_int err = target->clReleaseSampler(sampler);
  if (err == CL_SUCCESS && count == 1) shadow->records().dropSampler(sampler);
  return err;
}

cl_int CL_API_CALL releaseMemObject(cl_mem mem) {
  const cl_uint count = referenceCount(target->clGetMemObjectInfo, mem, CL_MEM_REFERENCE_COUNT);
  const cl_int err = target->clReleaseMemObject(mem);
  if (err == CL_SUCCESS && count == 1) shadow->records().dropMem(mem);
  return err;
}

// --- user events (see Records::userEvent) ---

cl_event CL_API_CALL createUserEvent(cl_context context, cl_int* errcode) {
  cl_event e = target->clCreateUserEvent(context, errcode);
  if (e) shadow->records().userEvent(e, context);
  return e;
}

cl_int CL_API_CALL setUserEventStatus(cl_event event, cl_int status) {
  const cl_int err = target->clSetUserEventStatus(event, status);
  if (err == CL_SUCCESS) shadow->records().userEventSet(event);
  return err;
}

// --- launches ---

cl_int CL_API_CALL enqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint dims,
                                        const size_t* offset, const size_t* global,
                                        const size_t* local, cl_uint numWait,
                                        const cl_event* waitList, cl_event* event) {
  return shadow->enqueue(queue, kernel, dims, offset, global, local, numWait, waitList, event);
}

cl_int CL_API_CALL enqueueTask(cl_command_queue queue, cl_kernel kernel, cl_uint numWait,
                               const cl_event* waitList, cl_event* event) {
  // OpenCL 3.0: equivalent to a 1-D NDRange of one work-item in one work-group.
  const size_t one = 1;
  return shadow->enqueue(queue, kernel, 1, nullptr, &one, &one, numWait, waitList, event);
}

// The target's table with the layer's functions in the slots it watches. A slot the
// target leaves empty stays empty.
void fillTable() {
  table = targetTable;
#define SPVSIM_LAYER_SLOT(slot, function) \
  if (targetTable.slot) table.slot = function;
  SPVSIM_LAYER_SLOT(clCreateProgramWithSource, createProgramWithSource)
  SPVSIM_LAYER_SLOT(clCreateProgramWithIL, createProgramWithIL)
  SPVSIM_LAYER_SLOT(clCreateProgramWithBinary, createProgramWithBinary)
  SPVSIM_LAYER_SLOT(clCreateProgramWithBuiltInKernels, createProgramWithBuiltInKernels)
  SPVSIM_LAYER_SLOT(clLinkProgram, linkProgram)
  SPVSIM_LAYER_SLOT(clBuildProgram, buildProgram)
  SPVSIM_LAYER_SLOT(clGetProgramInfo, getProgramInfo)
  SPVSIM_LAYER_SLOT(clReleaseProgram, releaseProgram)
  SPVSIM_LAYER_SLOT(clCreateKernel, createKernel)
  SPVSIM_LAYER_SLOT(clCreateKernelsInProgram, createKernelsInProgram)
  SPVSIM_LAYER_SLOT(clCloneKernel, cloneKernel)
  SPVSIM_LAYER_SLOT(clSetKernelArg, setKernelArg)
  SPVSIM_LAYER_SLOT(clSetKernelArgSVMPointer, setKernelArgSVMPointer)
  SPVSIM_LAYER_SLOT(clReleaseKernel, releaseKernel)
  SPVSIM_LAYER_SLOT(clCreateBuffer, createBuffer)
  SPVSIM_LAYER_SLOT(clCreateBufferWithProperties, createBufferWithProperties)
  SPVSIM_LAYER_SLOT(clCreateSubBuffer, createSubBuffer)
  SPVSIM_LAYER_SLOT(clCreateImage, createImage)
  SPVSIM_LAYER_SLOT(clCreateImageWithProperties, createImageWithProperties)
  SPVSIM_LAYER_SLOT(clCreateImage2D, createImage2D)
  SPVSIM_LAYER_SLOT(clCreateImage3D, createImage3D)
  SPVSIM_LAYER_SLOT(clCreateSampler, createSampler)
  SPVSIM_LAYER_SLOT(clCreateSamplerWithProperties, createSamplerWithProperties)
  SPVSIM_LAYER_SLOT(clReleaseSampler, releaseSampler)
  SPVSIM_LAYER_SLOT(clReleaseMemObject, releaseMemObject)
  SPVSIM_LAYER_SLOT(clCreateUserEvent, createUserEvent)
  SPVSIM_LAYER_SLOT(clSetUserEventStatus, setUserEventStatus)
  SPVSIM_LAYER_SLOT(clEnqueueNDRangeKernel, enqueueNDRangeKernel)
  SPVSIM_LAYER_SLOT(clEnqueueTask, enqueueTask)
#undef SPVSIM_LAYER_SLOT
}

}  // namespace
}  // namespace spvsim::layer

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetLayerInfo(cl_layer_info param, size_t size, void* value,
                                               size_t* sizeRet) {
  static const char kName[] = "spvsim: every launch shadowed on the reference simulator";
  switch (param) {
    case CL_LAYER_API_VERSION: {
      const cl_layer_api_version v = CL_LAYER_API_VERSION_100;
      if (sizeRet) *sizeRet = sizeof v;
      if (value && size < sizeof v) return CL_INVALID_VALUE;
      if (value) std::memcpy(value, &v, sizeof v);
      return CL_SUCCESS;
    }
    case CL_LAYER_NAME:
      if (sizeRet) *sizeRet = sizeof kName;
      if (value && size < sizeof kName) return CL_INVALID_VALUE;
      if (value) std::memcpy(value, kName, sizeof kName);
      return CL_SUCCESS;
    default:
      return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clInitLayer(cl_uint numEntries, const cl_icd_dispatch* driver,
                                            cl_uint* numEntriesRet,
                                            const cl_icd_dispatch** layerDispatch) {
  using namespace spvsim::layer;
  constexpr cl_uint kEntries = sizeof(cl_icd_dispatch) / sizeof(void*);
  if (!driver || !numEntriesRet || !layerDispatch || numEntries == 0) return CL_INVALID_VALUE;
  const cl_uint entries = std::min(numEntries, kEntries);
  if (!shadow) {
    std::memcpy(&targetTable, driver, entries * sizeof(void*));
    fillTable();
    // The ICD's settings first, so they outlive the summary written at exit.
    (void)spvsim::rt::knobs();
    shadow = new Shadow(target, ShadowKnobs::fromEnvironment());
    binarySources = new BinarySources(BinarySources::defaultDirectory());
    std::atexit(writeSummary);
  }
  *numEntriesRet = entries;
  *layerDispatch = &table;
  return CL_SUCCESS;
}

}  // extern "C"
