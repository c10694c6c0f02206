#include "runtime/kernel_args.h"

#include "runtime/arg_errors.h"
#include "runtime/image.h"
#include "runtime/pipe.h"
#include "runtime/sampler.h"
#include "src/exec/arg_check.h"

namespace spvsim::rt {
namespace {

// A pointer parameter's cl_mem (or NULL), which must be a buffer of the kernel's context.
cl_int bufferArg(const _cl_kernel* k, size_t size, const void* value, KernelArg& out) {
  if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
  const cl_mem mem = value ? *static_cast<const cl_mem*>(value) : nullptr;
  if (!mem) {  // "a NULL value will be used as the value for the argument"
    out.binding = ArgBinding::null();
    return CL_SUCCESS;
  }
  _cl_mem* m = checked<_cl_mem>(mem, Kind::Mem);
  if (!m || m->type != CL_MEM_OBJECT_BUFFER || m->context != k->program->context)
    return CL_INVALID_MEM_OBJECT;
  out.binding = ArgBinding::buffer(nullptr, m->size);  // storage bound at enqueue time
  // A kernel read of a CL_MEM_WRITE_ONLY buffer or write to a CL_MEM_READ_ONLY one is
  // undefined; the launch reports it (access-violation).
  out.binding.readable = !(m->flags & CL_MEM_WRITE_ONLY);
  out.binding.writable = !(m->flags & CL_MEM_READ_ONLY);
  out.mem = mem;
  return CL_SUCCESS;
}

// An image parameter's cl_mem: an image of the kernel's context. Its shape, format and
// storage (fixed at creation) go into the binding; the access checks are the
// signature's (src/exec/arg_check.h).
cl_int imageArg(const _cl_kernel* k, size_t size, const void* value, KernelArg& out) {
  if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
  if (!value) return CL_INVALID_ARG_VALUE;
  _cl_mem* m = validImage(*static_cast<const cl_mem*>(value));
  if (!m || m->context != k->program->context) return CL_INVALID_MEM_OBJECT;
  out.binding = ArgBinding::ofImage(m->image);
  out.binding.readable = !(m->flags & CL_MEM_WRITE_ONLY);
  out.binding.writable = !(m->flags & CL_MEM_READ_ONLY);
  out.mem = m;
  return CL_SUCCESS;
}

// A pipe parameter's cl_mem: a pipe of the kernel's context (runtime/pipe.h). Its
// PipeStorage is bound at enqueue time, like a buffer's storage.
cl_int pipeArg(const _cl_kernel* k, size_t size, const void* value, KernelArg& out) {
  if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
  if (!value) return CL_INVALID_ARG_VALUE;
  _cl_mem* m = validPipe(*static_cast<const cl_mem*>(value));
  if (!m || m->context != k->program->context) return CL_INVALID_MEM_OBJECT;
  out.binding = ArgBinding::ofPipe(m->pipe.get());
  out.mem = m;
  return CL_SUCCESS;
}

cl_int samplerArg(const _cl_kernel* k, size_t size, const void* value, KernelArg& out) {
  if (size != sizeof(cl_sampler)) return CL_INVALID_ARG_SIZE;
  if (!value) return CL_INVALID_SAMPLER;
  auto* s = checked<_cl_sampler>(*static_cast<const cl_sampler*>(value), Kind::Sampler);
  if (!s || s->context != k->program->context) return CL_INVALID_SAMPLER;
  out.binding = ArgBinding::ofSampler(s->state);
  return CL_SUCCESS;
}

// The argument the API's (size, value) pair gives, before the signature's checks: what
// only the API can get wrong (a handle of the wrong size, a missing value, a bad cl_mem).
cl_int fromApi(const _cl_kernel* k, const spirv::ParamSignature& p, size_t size, const void* value,
               KernelArg& out) {
  switch (p.kind) {
    case spirv::ParamKind::Value:
    case spirv::ParamKind::ByValStruct: {
      if (!value) return CL_INVALID_ARG_VALUE;
      const auto* bytes = static_cast<const uint8_t*>(value);
      out.binding = ArgBinding::bytes({bytes, bytes + size});
      return CL_SUCCESS;
    }
    case spirv::ParamKind::GlobalPointer:
    case spirv::ParamKind::ConstantPointer:
      return bufferArg(k, size, value, out);
    case spirv::ParamKind::LocalPointer:
      // A value for a local pointer reads as a buffer where local memory belongs.
      out.binding = value ? ArgBinding::buffer(nullptr, 0) : ArgBinding::local(size);
      return CL_SUCCESS;
    case spirv::ParamKind::Image:
      return imageArg(k, size, value, out);
    case spirv::ParamKind::Sampler:
      return samplerArg(k, size, value, out);
    case spirv::ParamKind::Pipe:
      return pipeArg(k, size, value, out);
    case spirv::ParamKind::Queue:  // a device queue (runtime/device_queue.cc)
      return deviceQueueArg(k->program->context, size, value, out.binding);
    default:  // opaque handles (events): no such objects exist here
      if (size != sizeof(void*)) return CL_INVALID_ARG_SIZE;
      out.binding = ArgBinding::null();
      return CL_SUCCESS;
  }
}

}  // namespace

cl_int makeArg(const _cl_kernel* k, cl_uint index, size_t size, const void* value, KernelArg& out) {
  const spirv::ParamSignature& p = k->kernel.signature().params.at(index);
  if (cl_int err = fromApi(k, p, size, value, out)) return err;
  if (auto e = checkArgument(p, out.binding)) return clError(*e, p);
  out.set = true;
  return CL_SUCCESS;
}

uint64_t staticLocalBytes(const spirv::ModuleFacts& facts, const spirv::EntryPoint& ep) {
  return facts.kernel(ep).workgroupBytes;
}

uint64_t privateBytes(const spirv::ModuleFacts& facts, const spirv::EntryPoint& ep) {
  return facts.kernel(ep).functionVariableBytes;
}

}  // namespace spvsim::rt
