// Creating kernels, setting their arguments, and the kernel and argument queries.
#include "runtime/kernel.h"

#include <fmt/format.h>

#include "runtime/kernel_args.h"
#include "runtime/knobs.h"
#include "runtime/program_api.h"

_cl_kernel::~_cl_kernel() {
  program->kernelCount.fetch_sub(1);
  spvsim::rt::release(program);
}

namespace spvsim::rt {
namespace {

_cl_kernel* newKernel(_cl_program* program, std::shared_ptr<Program> executable,
                      const spirv::EntryPoint& ep, bool uniform) {
  auto* k = new _cl_kernel;
  k->program = program;
  retain(program);
  program->kernelCount.fetch_add(1);
  k->executable = std::move(executable);
  k->kernel = k->executable->kernel(ep.name);
  k->uniformWorkGroups = uniform;
  k->staticLocalBytes = staticLocalBytes(k->executable->facts(), ep);
  k->privateBytes = privateBytes(k->executable->facts(), ep);
  k->args.resize(ep.signature.params.size());
  return registerObject(k);
}

// The program's executable and uniform-work-group requirement, under its lock so that
// the kernel count and a concurrent build agree; nullptr without a successful build.
std::shared_ptr<Program> attachableExecutable(_cl_program* p, bool& uniform) {
  std::lock_guard<std::mutex> lock(p->mutex);
  if (p->state.busy || p->state.status != CL_BUILD_SUCCESS) return nullptr;
  uniform = p->state.facts.uniformWorkGroups;
  return p->state.executable;
}

// CL_KERNEL_ATTRIBUTES: the OpenCL C attributes the signature records, as they would be
// written in the source (only for programs built from source).
std::string kernelAttributes(const _cl_kernel* k) {
  if (k->program->origin != ProgramOrigin::Source) return "";
  const spirv::KernelSignature& sig = k->kernel.signature();
  std::string out;
  auto add = [&](const std::string& a) { out += (out.empty() ? "" : " ") + a; };
  if (const auto& s = sig.requiredWorkGroupSize)
    add(fmt::format("reqd_work_group_size({},{},{})", (*s)[0], (*s)[1], (*s)[2]));
  if (const auto& s = sig.workGroupSizeHint)
    add(fmt::format("work_group_size_hint({},{},{})", (*s)[0], (*s)[1], (*s)[2]));
  if (sig.vecTypeHint) add(fmt::format("vec_type_hint({})", *sig.vecTypeHint));
  if (sig.requiredSubGroupSize)
    add(fmt::format("intel_reqd_sub_group_size({})", *sig.requiredSubGroupSize));
  return out;
}

static_assert(spirv::kQualConst == CL_KERNEL_ARG_TYPE_CONST &&
              spirv::kQualRestrict == CL_KERNEL_ARG_TYPE_RESTRICT &&
              spirv::kQualVolatile == CL_KERNEL_ARG_TYPE_VOLATILE &&
              spirv::kQualPipe == CL_KERNEL_ARG_TYPE_PIPE);

cl_kernel_arg_address_qualifier addressQualifier(spirv::AddressSpace space) {
  switch (space) {
    case spirv::AddressSpace::Constant:
      return CL_KERNEL_ARG_ADDRESS_CONSTANT;
    case spirv::AddressSpace::Local:
      return CL_KERNEL_ARG_ADDRESS_LOCAL;
    case spirv::AddressSpace::Private:
      return CL_KERNEL_ARG_ADDRESS_PRIVATE;
    default:
      return CL_KERNEL_ARG_ADDRESS_GLOBAL;
  }
}

cl_kernel_arg_access_qualifier accessQualifier(spirv::AccessQualifier access) {
  switch (access) {
    case spirv::AccessQualifier::ReadOnly:
      return CL_KERNEL_ARG_ACCESS_READ_ONLY;
    case spirv::AccessQualifier::WriteOnly:
      return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
    case spirv::AccessQualifier::ReadWrite:
      return CL_KERNEL_ARG_ACCESS_READ_WRITE;
    case spirv::AccessQualifier::None:
      break;
  }
  return CL_KERNEL_ARG_ACCESS_NONE;
}

}  // namespace

uint32_t defaultSubGroupSize(const _cl_kernel* k) {
  const uint32_t override = k->subGroupSizeOverride.load();
  return override ? override : knobs().subGroupSize;
}

uint32_t kernelSubGroupSize(const _cl_kernel* k) {
  return k->executable->subGroupSizeFor(k->kernel, defaultSubGroupSize(k));
}

uint64_t localMemoryBytes(uint64_t staticBytes, const std::vector<KernelArg>& args) {
  uint64_t total = staticBytes;
  for (const KernelArg& a : args)
    if (a.set && a.binding.kind == ArgBinding::Kind::Local &&
        __builtin_add_overflow(total, a.binding.localBytes, &total))
      return UINT64_MAX;
  return total;
}

uint64_t kernelLocalBytes(_cl_kernel* k) {
  std::lock_guard<std::mutex> lock(k->mutex);
  return localMemoryBytes(k->staticLocalBytes, k->args);
}

uint32_t compileNumSubGroups(const _cl_kernel* k) {
  const auto* m = k->kernel.entryPoint().findMode(spv::ExecutionMode::SubgroupsPerWorkgroup);
  if (!m) m = k->kernel.entryPoint().findMode(spv::ExecutionMode::SubgroupsPerWorkgroupId);
  return m && !m->literals.empty() ? m->literals[0] : 0;
}

const spirv::ExecutionMode* requiredWorkGroupSize(const _cl_kernel* k) {
  const auto* m = k->kernel.entryPoint().findMode(spv::ExecutionMode::LocalSize);
  if (!m) m = k->kernel.entryPoint().findMode(spv::ExecutionMode::LocalSizeId);
  return m && m->literals.size() == 3 ? m : nullptr;
}

cl_kernel clCreateKernel(cl_program program, const char* kernel_name, cl_int* errcode_ret) {
  _cl_program* p = checked<_cl_program>(program, Kind::Program);
  if (!p) return withError<cl_kernel>(errcode_ret, CL_INVALID_PROGRAM, nullptr);
  if (!kernel_name) return withError<cl_kernel>(errcode_ret, CL_INVALID_VALUE, nullptr);
  bool uniform = false;
  std::shared_ptr<Program> exe = attachableExecutable(p, uniform);
  if (!exe) return withError<cl_kernel>(errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE, nullptr);
  const spirv::EntryPoint* ep = exe->module().findEntryPoint(kernel_name);
  if (!ep) return withError<cl_kernel>(errcode_ret, CL_INVALID_KERNEL_NAME, nullptr);
  return withError<cl_kernel>(errcode_ret, CL_SUCCESS, newKernel(p, exe, *ep, uniform));
}

cl_int clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                cl_uint* num_kernels_ret) {
  _cl_program* p = checked<_cl_program>(program, Kind::Program);
  if (!p) return CL_INVALID_PROGRAM;
  bool uniform = false;
  std::shared_ptr<Program> exe = attachableExecutable(p, uniform);
  if (!exe) return CL_INVALID_PROGRAM_EXECUTABLE;
  const auto& eps = exe->module().entryPoints;
  if (kernels && num_kernels < eps.size()) return CL_INVALID_VALUE;
  if (kernels)
    for (size_t i = 0; i < eps.size(); ++i) kernels[i] = newKernel(p, exe, eps[i], uniform);
  if (num_kernels_ret) *num_kernels_ret = static_cast<cl_uint>(eps.size());
  return CL_SUCCESS;
}

cl_kernel clCloneKernel(cl_kernel source_kernel, cl_int* errcode_ret) {
  _cl_kernel* s = checked<_cl_kernel>(source_kernel, Kind::Kernel);
  if (!s) return withError<cl_kernel>(errcode_ret, CL_INVALID_KERNEL, nullptr);
  _cl_kernel* k =
      newKernel(s->program, s->executable, s->kernel.entryPoint(), s->uniformWorkGroups);
  std::vector<KernelArg> args;
  {
    std::lock_guard<std::mutex> lock(s->mutex);
    args = s->args;
  }
  std::lock_guard<std::mutex> lock(k->mutex);
  k->args = std::move(args);
  return withError<cl_kernel>(errcode_ret, CL_SUCCESS, k);
}

cl_int clRetainKernel(cl_kernel kernel) {
  _cl_kernel* k = checked<_cl_kernel>(kernel, Kind::Kernel);
  return k && retainHandle(k) ? CL_SUCCESS : CL_INVALID_KERNEL;
}

cl_int clReleaseKernel(cl_kernel kernel) {
  _cl_kernel* k = checked<_cl_kernel>(kernel, Kind::Kernel);
  return k && releaseHandle(k) ? CL_SUCCESS : CL_INVALID_KERNEL;
}

cl_int clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void* arg_value) {
  _cl_kernel* k = checked<_cl_kernel>(kernel, Kind::Kernel);
  if (!k) return CL_INVALID_KERNEL;
  if (arg_index >= k->args.size()) return CL_INVALID_ARG_INDEX;
  KernelArg arg;
  const cl_int err = makeArg(k, arg_index, arg_size, arg_value, arg);
  if (err != CL_SUCCESS) return err;
  std::lock_guard<std::mutex> lock(k->mutex);
  k->args[arg_index] = std::move(arg);
  return CL_SUCCESS;
}

cl_int clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                       void* param_value, size_t* param_value_size_ret) {
  _cl_kernel* k = checked<_cl_kernel>(kernel, Kind::Kernel);
  if (!k) return CL_INVALID_KERNEL;
  const size_t size = param_value_size;
  void* value = param_value;
  size_t* sizeRet = param_value_size_ret;
  switch (param_name) {
    case CL_KERNEL_FUNCTION_NAME:
      return returnString(k->kernel.name(), size, value, sizeRet);
    case CL_KERNEL_NUM_ARGS:
      return returnValue(static_cast<cl_uint>(k->args.size()), size, value, sizeRet);
    case CL_KERNEL_REFERENCE_COUNT:
      return returnValue(cl_uint{k->refs.load()}, size, value, sizeRet);
    case CL_KERNEL_CONTEXT:
      return returnValue(k->program->context, size, value, sizeRet);
    case CL_KERNEL_PROGRAM:
      return returnValue(static_cast<cl_program>(k->program), size, value, sizeRet);
    case CL_KERNEL_ATTRIBUTES:
      return returnString(kernelAttributes(k), size, value, sizeRet);
    default:
      return CL_INVALID_VALUE;
  }
}

cl_int clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_indx, cl_kernel_arg_info param_name,
                          size_t param_value_size, void* param_value,
                          size_t* param_value_size_ret) {
  _cl_kernel* k = checked<_cl_kernel>(kernel, Kind::Kernel);
  if (!k) return CL_INVALID_KERNEL;
  if (arg_indx >= k->args.size()) return CL_INVALID_ARG_INDEX;
  // The answers `spvsim info` prints: both read the loader's signature.
  const spirv::ParamSignature& p = k->kernel.signature().params.at(arg_indx);
  const size_t size = param_value_size;
  void* value = param_value;
  size_t* sizeRet = param_value_size_ret;
  switch (param_name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
      return returnValue(addressQualifier(p.addressSpace), size, value, sizeRet);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
      return returnValue(accessQualifier(p.access), size, value, sizeRet);
    case CL_KERNEL_ARG_TYPE_NAME:
      return returnString(p.typeName, size, value, sizeRet);
    case CL_KERNEL_ARG_TYPE_QUALIFIER:  // TypeQualifier bits are the CL_KERNEL_ARG_TYPE_* values
      return returnValue(cl_kernel_arg_type_qualifier{p.qualifiers}, size, value, sizeRet);
    case CL_KERNEL_ARG_NAME:
      if (!p.named) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
      return returnString(p.name, size, value, sizeRet);
    default:
      return CL_INVALID_VALUE;
  }
}

}  // namespace spvsim::rt
