#include "runtime/kernel_args.h"

#include <fmt/format.h>

namespace spvsim::rt {
namespace {

using spirv::AddressSpace;

// Bytes of a by-value argument (a struct passed ByVal: its pointee).
uint64_t valueBytes(const spirv::Module& m, const spirv::KernelParam& p) {
  const spirv::Type& t = m.type(p.type);
  return p.byValStruct ? m.type(t.element).size : t.size;
}

// Whether a parameter (or clang's inner kernel's one) carries a decoration.
bool hasParamAttr(const spirv::Module& m, spirv::Id id, spv::FunctionParameterAttribute a) {
  auto it = m.decorations.find(id);
  if (it == m.decorations.end()) return false;
  for (const auto& d : it->second)
    if (d.kind == spv::Decoration::FuncParamAttr && !d.literals.empty() &&
        d.literals[0] == static_cast<uint32_t>(a))
      return true;
  return false;
}

// The user's kernel that clang's entry-point wrapper calls, if it has the same arity.
const spirv::Function* innerKernel(const spirv::Module& m, const spirv::EntryPoint& ep) {
  const spirv::Function* wrapper = m.findFunction(ep.function);
  if (!wrapper) return nullptr;
  for (const auto& b : wrapper->blocks)
    for (const auto& i : b.instructions)
      if (i.opcode == spv::Op::OpFunctionCall) {
        const spirv::Function* f = m.findFunction(i.operands.at(0));
        return f && f->params.size() == wrapper->params.size() ? f : nullptr;
      }
  return nullptr;
}

// The i-th comma-terminated field of "<prefix><kernel>.a,b,c," in the module's strings.
std::optional<std::string> stringField(const spirv::Module& m, const std::string& prefix,
                                       size_t index) {
  for (const auto& [id, s] : m.strings) {
    if (s.rfind(prefix, 0) != 0) continue;
    size_t start = prefix.size();
    for (size_t k = 0; k < index; ++k) {
      start = s.find(',', start);
      if (start == std::string::npos) return std::nullopt;
      ++start;
    }
    const size_t end = s.find(',', start);
    return s.substr(start, end == std::string::npos ? std::string::npos : end - start);
  }
  return std::nullopt;
}

// "int*" for a pointer, the struct's OpenCL C name for a struct ("struct.S" -> "struct S").
std::string derivedTypeName(const spirv::Module& m, const spirv::KernelParam& p) {
  const spirv::Type& t = m.type(p.type);
  std::string name;
  if (p.byValStruct)
    name = spirv::typeName(m, t.element);
  else if (t.kind == spirv::TypeKind::Pointer)
    name = spirv::typeName(m, t.element) + "*";
  else
    name = spirv::typeName(m, p.type);
  for (const char* tag : {"struct", "union"}) {
    const std::string prefix = std::string(tag) + ".";
    if (name.rfind(prefix, 0) == 0) name = std::string(tag) + " " + name.substr(prefix.size());
  }
  return name;
}

cl_kernel_arg_type_qualifier qualifierFromString(const std::string& text) {
  cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
  if (text.find("const") != std::string::npos) q |= CL_KERNEL_ARG_TYPE_CONST;
  if (text.find("restrict") != std::string::npos) q |= CL_KERNEL_ARG_TYPE_RESTRICT;
  if (text.find("volatile") != std::string::npos) q |= CL_KERNEL_ARG_TYPE_VOLATILE;
  if (text.find("pipe") != std::string::npos) q |= CL_KERNEL_ARG_TYPE_PIPE;
  return q;
}

// Qualifiers from decorations (modules without the source's strings): NoWrite reads as
// const, NoAlias as restrict, Volatile as volatile.
cl_kernel_arg_type_qualifier qualifierFromDecorations(const spirv::Module& m,
                                                      const spirv::EntryPoint& ep, size_t i) {
  const spirv::KernelParam& p = ep.params[i];
  if (!p.isPointer) return CL_KERNEL_ARG_TYPE_NONE;
  const spirv::Function* inner = innerKernel(m, ep);
  auto attr = [&](spv::FunctionParameterAttribute a) {
    return hasParamAttr(m, p.id, a) || (inner && hasParamAttr(m, inner->params[i], a));
  };
  auto volatileDecorated = [&](spirv::Id id) {
    return m.hasDecoration(id, spv::Decoration::Volatile);
  };
  cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
  if (attr(spv::FunctionParameterAttribute::NoWrite)) q |= CL_KERNEL_ARG_TYPE_CONST;
  if (attr(spv::FunctionParameterAttribute::NoAlias)) q |= CL_KERNEL_ARG_TYPE_RESTRICT;
  if (volatileDecorated(p.id) || (inner && volatileDecorated(inner->params[i])))
    q |= CL_KERNEL_ARG_TYPE_VOLATILE;
  return q;
}

cl_kernel_arg_address_qualifier addressQualifier(const spirv::KernelParam& p) {
  if (!p.isPointer) return CL_KERNEL_ARG_ADDRESS_PRIVATE;
  switch (p.addressSpace) {
    case AddressSpace::Constant:
      return CL_KERNEL_ARG_ADDRESS_CONSTANT;
    case AddressSpace::Local:
      return CL_KERNEL_ARG_ADDRESS_LOCAL;
    case AddressSpace::Private:
      return CL_KERNEL_ARG_ADDRESS_PRIVATE;
    default:
      return CL_KERNEL_ARG_ADDRESS_GLOBAL;
  }
}

cl_int bufferArg(const _cl_kernel* k, size_t size, const void* value, KernelArg& out) {
  if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
  const cl_mem mem = value ? *static_cast<const cl_mem*>(value) : nullptr;
  if (!mem) {  // "a NULL value will be used as the value for the argument"
    out.kind = KernelArg::Kind::Null;
    return CL_SUCCESS;
  }
  _cl_mem* m = checked<_cl_mem>(mem, Kind::Mem);
  if (!m || m->type != CL_MEM_OBJECT_BUFFER || m->context != k->program->context)
    return CL_INVALID_MEM_OBJECT;
  out.kind = KernelArg::Kind::Buffer;
  out.mem = mem;
  return CL_SUCCESS;
}

}  // namespace

ParamKind paramKind(const spirv::Module& m, const spirv::KernelParam& p) {
  if (p.byValStruct) return ParamKind::Value;
  if (p.isPointer) {
    if (p.addressSpace == AddressSpace::Local) return ParamKind::Local;
    if (p.addressSpace == AddressSpace::Constant) return ParamKind::ConstantBuffer;
    return ParamKind::GlobalBuffer;
  }
  const spirv::Type& t = m.type(p.type);
  if (t.kind != spirv::TypeKind::Opaque) return ParamKind::Value;
  if (t.opcode == spv::Op::OpTypeSampler) return ParamKind::Sampler;
  if (t.opcode == spv::Op::OpTypeQueue) return ParamKind::Queue;
  return ParamKind::Image;
}

cl_int makeArg(const _cl_kernel* k, cl_uint index, size_t size, const void* value, KernelArg& out) {
  const spirv::KernelParam& p = k->entry->params[index];
  switch (k->paramKinds[index]) {
    case ParamKind::Value: {
      if (size != valueBytes(k->executable->module(), p)) return CL_INVALID_ARG_SIZE;
      if (!value) return CL_INVALID_ARG_VALUE;
      const auto* bytes = static_cast<const uint8_t*>(value);
      out.kind = KernelArg::Kind::Value;
      out.bytes.assign(bytes, bytes + size);
      return CL_SUCCESS;
    }
    case ParamKind::GlobalBuffer:
    case ParamKind::ConstantBuffer:
      return bufferArg(k, size, value, out);
    case ParamKind::Local:
      if (value) return CL_INVALID_ARG_VALUE;
      if (size == 0) return CL_INVALID_ARG_SIZE;
      out.kind = KernelArg::Kind::Local;
      out.localBytes = size;
      return CL_SUCCESS;
    case ParamKind::Sampler:  // no sampler object can exist: images are not supported
      return size != sizeof(cl_sampler) ? CL_INVALID_ARG_SIZE : CL_INVALID_SAMPLER;
    case ParamKind::Queue:  // no device queue can exist
      return size != sizeof(cl_command_queue) ? CL_INVALID_ARG_SIZE : CL_INVALID_DEVICE_QUEUE;
    case ParamKind::Image:  // no image or pipe object can exist
      return size != sizeof(cl_mem) ? CL_INVALID_ARG_SIZE : CL_INVALID_MEM_OBJECT;
  }
  return CL_INVALID_ARG_VALUE;
}

ArgInfo argInfo(const spirv::Module& m, const spirv::EntryPoint& ep, size_t index) {
  const spirv::KernelParam& p = ep.params[index];
  ArgInfo info;
  info.addressQualifier = addressQualifier(p);
  // The loader's typeName is the kernel_arg_type string when the module has one.
  const std::string derived = derivedTypeName(m, p);
  info.typeName = p.typeName != spirv::typeName(m, p.type) ? p.typeName : derived;
  if (auto q = stringField(m, "kernel_arg_type_qual." + ep.name + ".", index))
    info.typeQualifier = qualifierFromString(*q);
  else
    info.typeQualifier = qualifierFromDecorations(m, ep, index);
  // "CL_KERNEL_ARG_TYPE_CONST is returned ... if the argument is declared with the
  // constant address space qualifier."
  if (info.addressQualifier == CL_KERNEL_ARG_ADDRESS_CONSTANT)
    info.typeQualifier |= CL_KERNEL_ARG_TYPE_CONST;
  const bool named = p.name != fmt::format("arg{}", index) || m.names.count(p.id);
  if (named) info.name = p.name;
  return info;
}

uint64_t staticLocalBytes(const spirv::ModuleFacts& facts, const spirv::EntryPoint& ep) {
  return facts.kernel(ep).workgroupBytes;
}

uint64_t privateBytes(const spirv::ModuleFacts& facts, const spirv::EntryPoint& ep) {
  return facts.kernel(ep).functionVariableBytes;
}

std::string vecTypeHintName(uint32_t hint) {
  static const char* const kNames[] = {"char", "short", "int", "long", "half", "float", "double"};
  const uint32_t type = hint & 0xffff, count = hint >> 16;
  const std::string base = type < 7 ? kNames[type] : "unknown";
  return count > 1 ? fmt::format("{}{}", base, count) : base;
}

}  // namespace spvsim::rt
