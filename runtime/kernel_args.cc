#include "runtime/kernel_args.h"

#include <set>

#include "runtime/arg_errors.h"
#include "src/exec/arg_check.h"

namespace spvsim::rt {
namespace {

// Every function the entry point reaches through OpFunctionCall.
std::vector<const spirv::Function*> callTree(const spirv::Module& m, const spirv::EntryPoint& ep) {
  std::vector<const spirv::Function*> out;
  std::set<spirv::Id> seen{ep.function};
  std::vector<spirv::Id> work{ep.function};
  while (!work.empty()) {
    const spirv::Function* f = m.findFunction(work.back());
    work.pop_back();
    if (!f) continue;
    out.push_back(f);
    for (const auto& b : f->blocks)
      for (const auto& i : b.instructions)
        if (i.opcode == spv::Op::OpFunctionCall && seen.insert(i.operands.at(0)).second)
          work.push_back(i.operands.at(0));
  }
  return out;
}

uint64_t pointeeBytes(const spirv::Module& m, spirv::Id pointerType) {
  const spirv::Type* t = m.findType(pointerType);
  const spirv::Type* e = t ? m.findType(t->element) : nullptr;
  return e ? e->size : 0;
}

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
  out.mem = mem;
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
    default:  // opaque handles (cl_mem, cl_sampler, queue): no such objects exist here
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

uint64_t staticLocalBytes(const spirv::Module& m, const spirv::EntryPoint& ep) {
  std::set<spirv::Id> used;
  for (const spirv::Function* f : callTree(m, ep))
    for (const auto& b : f->blocks)
      for (const auto& i : b.instructions)
        for (uint32_t word : i.operands) {
          auto v = m.variables.find(word);
          if (v != m.variables.end() && v->second.storage == spv::StorageClass::Workgroup)
            used.insert(word);
        }
  uint64_t total = 0;
  for (spirv::Id id : used) total += pointeeBytes(m, m.variables.at(id).type);
  return total;
}

uint64_t privateBytes(const spirv::Module& m, const spirv::EntryPoint& ep) {
  uint64_t total = 0;
  for (const spirv::Function* f : callTree(m, ep))
    for (const auto& b : f->blocks)
      for (const auto& i : b.instructions)
        if (i.opcode == spv::Op::OpVariable) total += pointeeBytes(m, i.resultType);
  return total;
}

}  // namespace spvsim::rt
