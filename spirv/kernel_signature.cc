#include "spirv/kernel_signature.h"

#include <fmt/format.h>

#include "spirv/error.h"
#include "spirv/module.h"

namespace spvsim::spirv {
namespace {

using Attr = spv::FunctionParameterAttribute;

// The user's kernel that clang's entry-point wrapper calls, if it has the same arity:
// names and decorations may be on its parameters rather than the wrapper's.
const Function* innerKernel(const Module& m, const Function& wrapper) {
  for (const auto& b : wrapper.blocks)
    for (const auto& i : b.instructions)
      if (i.opcode == spv::Op::OpFunctionCall) {
        const Function* f = m.findFunction(i.operands.at(0));
        return f && f->params.size() == wrapper.params.size() ? f : nullptr;
      }
  return nullptr;
}

// The fields of "<prefix>a,b,c," among the module's strings (llvm-spirv keeps clang's
// kernel_arg_type metadata this way), or nullopt when there is no such string.
std::optional<std::vector<std::string>> stringFields(const Module& m, const std::string& prefix) {
  for (const auto& [id, s] : m.strings) {
    if (s.rfind(prefix, 0) != 0) continue;
    std::vector<std::string> out;
    size_t start = prefix.size();
    while (start < s.size()) {
      const size_t end = s.find(',', start);
      out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
      if (end == std::string::npos) break;
      start = end + 1;
    }
    return out;
  }
  return std::nullopt;
}

// What the parser needs to know about one parameter beyond its own id.
struct ParamSource {
  const Module& m;
  Id id;
  Id innerId;  // clang's inner kernel's parameter, or 0
  bool attr(Attr a) const {
    return m.hasParamAttr(id, a) || (innerId && m.hasParamAttr(innerId, a));
  }
  bool decorated(spv::Decoration d) const {
    return m.hasDecoration(id, d) || (innerId && m.hasDecoration(innerId, d));
  }
};

AddressSpace addressSpaceOf(spv::StorageClass sc) {
  switch (sc) {
    case spv::StorageClass::CrossWorkgroup:
      return AddressSpace::Global;
    case spv::StorageClass::UniformConstant:
      return AddressSpace::Constant;
    case spv::StorageClass::Workgroup:
      return AddressSpace::Local;
    case spv::StorageClass::Generic:
      return AddressSpace::Generic;
    default:
      return AddressSpace::Private;
  }
}

ParamKind opaqueKind(spv::Op op) {
  switch (op) {
    case spv::Op::OpTypeSampler:
      return ParamKind::Sampler;
    case spv::Op::OpTypePipe:
      return ParamKind::Pipe;
    case spv::Op::OpTypeQueue:
      return ParamKind::Queue;
    case spv::Op::OpTypeEvent:
    case spv::Op::OpTypeDeviceEvent:
      return ParamKind::Event;
    default:  // images, sampled images and other memory objects
      return ParamKind::Image;
  }
}

ParamKind pointerKind(AddressSpace space) {
  switch (space) {
    case AddressSpace::Local:
      return ParamKind::LocalPointer;
    case AddressSpace::Constant:
      return ParamKind::ConstantPointer;
    default:
      return ParamKind::GlobalPointer;
  }
}

// SPIR-V AccessQualifier operand (0 ReadOnly, 1 WriteOnly, 2 ReadWrite).
AccessQualifier accessOf(const std::vector<uint32_t>& operands, size_t at) {
  if (operands.size() <= at) return AccessQualifier::None;
  switch (operands[at]) {
    case 0:
      return AccessQualifier::ReadOnly;
    case 1:
      return AccessQualifier::WriteOnly;
    default:
      return AccessQualifier::ReadWrite;
  }
}

// OpenCL C's image type names from OpTypeImage's Dim, Depth and Arrayed operands.
std::string imageName(const Type& t) {
  if (t.operands.size() < 4) return "image";
  const uint32_t dim = t.operands[1], depth = t.operands[2], arrayed = t.operands[3];
  const char* base = dim == 0 ? "image1d" : dim == 1 ? "image2d" : dim == 2 ? "image3d" : nullptr;
  if (dim == static_cast<uint32_t>(spv::Dim::Buffer)) return "image1d_buffer_t";
  if (!base) return "image";
  return fmt::format("{}{}{}_t", base, arrayed == 1 ? "_array" : "", depth == 1 ? "_depth" : "");
}

// clang names structs "struct.S"; OpenCL C spells them "struct S".
std::string cStructName(std::string name) {
  for (const char* tag : {"struct", "union"}) {
    const std::string prefix = std::string(tag) + ".";
    if (name.rfind(prefix, 0) == 0) return std::string(tag) + " " + name.substr(prefix.size());
  }
  return name;
}

// The type name from the SPIR-V type alone (integer signedness is not recorded there).
std::string derivedTypeName(const Module& m, const ParamSignature& p) {
  const Type& t = m.type(p.type);
  if (p.kind == ParamKind::ByValStruct) return cStructName(typeName(m, p.pointee));
  if (p.isPointer()) return cStructName(typeName(m, p.pointee)) + "*";
  if (p.kind == ParamKind::Image && t.opcode == spv::Op::OpTypeImage) return imageName(t);
  return cStructName(typeName(m, p.type));
}

uint32_t qualifiersFromString(const std::string& text) {
  uint32_t q = 0;
  if (text.find("const") != std::string::npos) q |= kQualConst;
  if (text.find("restrict") != std::string::npos) q |= kQualRestrict;
  if (text.find("volatile") != std::string::npos) q |= kQualVolatile;
  if (text.find("pipe") != std::string::npos) q |= kQualPipe;
  return q;
}

// Without the source's strings: NoWrite reads as const, NoAlias as restrict, Volatile as
// volatile (pointers only; the only parameters these decorations apply to).
uint32_t qualifiersFromDecorations(const ParamSource& src, const ParamSignature& p) {
  uint32_t q = p.kind == ParamKind::Pipe ? kQualPipe : 0;
  if (!p.isPointer()) return q;
  if (src.attr(Attr::NoWrite)) q |= kQualConst;
  if (src.attr(Attr::NoAlias)) q |= kQualRestrict;
  if (src.decorated(spv::Decoration::Volatile)) q |= kQualVolatile;
  return q;
}

// The element a global or constant pointer expects (ParamSignature::pointeeSize).
void describePointee(const Module& m, ParamSignature& p) {
  if (p.kind != ParamKind::GlobalPointer && p.kind != ParamKind::ConstantPointer) return;
  const Type* pointee = m.findType(p.pointee);
  if (!pointee || (pointee->kind != TypeKind::Int && pointee->kind != TypeKind::Float &&
                   pointee->kind != TypeKind::Vector))
    return;
  const Type* scalar = pointee->kind == TypeKind::Vector ? m.findType(pointee->element) : pointee;
  if (!scalar || (scalar->kind == TypeKind::Int && scalar->width == 8)) return;
  p.pointeeSize = pointee->size;
  p.pointeeComponentSize = scalar->size;
  p.pointeeFloating = scalar->kind == TypeKind::Float;
}

// Kind, address space, access qualifier, size and value facts from the SPIR-V type.
void classify(const Module& m, const ParamSource& src, ParamSignature& p) {
  const Type& t = m.type(p.type);
  p.size = t.size;
  if (t.kind == TypeKind::Pointer) {
    p.pointee = t.element;
    if (src.attr(Attr::ByVal)) {
      p.kind = ParamKind::ByValStruct;
      p.size = m.type(t.element).size;
      return;
    }
    p.addressSpace = addressSpaceOf(t.storage);
    p.kind = pointerKind(p.addressSpace);
    p.readOnly = src.attr(Attr::NoWrite) || p.addressSpace == AddressSpace::Constant;
    describePointee(m, p);
    return;
  }
  if (t.kind == TypeKind::Opaque) {
    p.kind = opaqueKind(t.opcode);
    p.size = 8;  // a handle (cl_mem, cl_sampler, ...)
    // "image and pipe objects are always allocated from the global address space"
    if (p.kind == ParamKind::Image || p.kind == ParamKind::Pipe)
      p.addressSpace = AddressSpace::Global;
    if (t.opcode == spv::Op::OpTypeImage) p.access = accessOf(t.operands, 7);
    if (t.opcode == spv::Op::OpTypePipe) p.access = accessOf(t.operands, 0);
    return;
  }
  p.kind = t.kind == TypeKind::Struct ? ParamKind::ByValStruct : ParamKind::Value;
  const Type* scalar = t.kind == TypeKind::Vector ? m.findType(t.element) : &t;
  p.isFloating = scalar && scalar->kind == TypeKind::Float;
}

std::optional<std::array<uint32_t, 3>> sizeMode(const EntryPoint& ep, spv::ExecutionMode mode) {
  const ExecutionMode* m = ep.findMode(mode);
  if (!m || m->literals.size() != 3) return std::nullopt;
  return std::array<uint32_t, 3>{m->literals[0], m->literals[1], m->literals[2]};
}

void readModes(const EntryPoint& ep, KernelSignature& sig) {
  sig.requiredWorkGroupSize = sizeMode(ep, spv::ExecutionMode::LocalSize);
  if (!sig.requiredWorkGroupSize)
    sig.requiredWorkGroupSize = sizeMode(ep, spv::ExecutionMode::LocalSizeId);
  sig.workGroupSizeHint = sizeMode(ep, spv::ExecutionMode::LocalSizeHint);
  if (const ExecutionMode* m = ep.findMode(spv::ExecutionMode::VecTypeHint);
      m && !m->literals.empty())
    sig.vecTypeHint = vecTypeHintName(m->literals[0]);
  if (const ExecutionMode* m = ep.findMode(spv::ExecutionMode::SubgroupSize);
      m && !m->literals.empty())
    sig.requiredSubGroupSize = m->literals[0];
}

}  // namespace

KernelSignature buildSignature(const Module& m, const EntryPoint& ep) {
  const Function* fn = m.findFunction(ep.function);
  if (!fn) throw Error(DiagnosticKind::InvalidModule, "entry point names no function");
  const Function* inner = innerKernel(m, *fn);
  const auto typeNames = stringFields(m, "kernel_arg_type." + ep.name + ".");
  const auto typeQuals = stringFields(m, "kernel_arg_type_qual." + ep.name + ".");
  KernelSignature sig;
  sig.name = ep.name;
  for (size_t k = 0; k < fn->params.size(); ++k) {
    ParamSignature p;
    p.index = static_cast<uint32_t>(k);
    p.id = fn->params[k];
    p.type = fn->paramTypes[k];
    const ParamSource src{m, p.id, inner ? inner->params[k] : 0};
    const Id named = m.names.count(p.id) || !src.innerId ? p.id : src.innerId;
    p.named = m.names.count(named) != 0;
    p.name = p.named ? m.names.at(named) : fmt::format("arg{}", k);
    classify(m, src, p);
    p.typeName = typeNames && k < typeNames->size() ? (*typeNames)[k] : derivedTypeName(m, p);
    p.qualifiers = typeQuals && k < typeQuals->size() ? qualifiersFromString((*typeQuals)[k])
                                                      : qualifiersFromDecorations(src, p);
    // "CL_KERNEL_ARG_TYPE_CONST is returned ... if the argument is declared with the
    // constant address space qualifier."
    if (p.addressSpace == AddressSpace::Constant) p.qualifiers |= kQualConst;
    if (auto* d = m.findDecoration(p.id, spv::Decoration::Alignment))
      p.alignment = d->literals.at(0);
    sig.params.push_back(std::move(p));
  }
  readModes(ep, sig);
  return sig;
}

std::string ParamSignature::label() const { return fmt::format("argument {} ({})", index, name); }

std::string ParamSignature::declaration() const {
  const bool spaced = isPointer() || kind == ParamKind::Image || kind == ParamKind::Pipe;
  return fmt::format("{}{} {}", spaced ? std::string(addressSpaceName(addressSpace)) + " " : "",
                     typeName, name);
}

const char* addressSpaceName(AddressSpace space) {
  switch (space) {
    case AddressSpace::Global:
    case AddressSpace::Generic:
      return "global";
    case AddressSpace::Constant:
      return "constant";
    case AddressSpace::Local:
      return "local";
    case AddressSpace::Private:
      return "private";
  }
  return "private";
}

const char* accessQualifierName(AccessQualifier access) {
  switch (access) {
    case AccessQualifier::ReadOnly:
      return "read_only";
    case AccessQualifier::WriteOnly:
      return "write_only";
    case AccessQualifier::ReadWrite:
      return "read_write";
    case AccessQualifier::None:
      return "none";
  }
  return "none";
}

std::string qualifierNames(uint32_t q) {
  std::string out;
  auto add = [&](uint32_t bit, const char* name) {
    if (q & bit) out += (out.empty() ? "" : " ") + std::string(name);
  };
  add(kQualConst, "const");
  add(kQualRestrict, "restrict");
  add(kQualVolatile, "volatile");
  add(kQualPipe, "pipe");
  return out;
}

std::string vecTypeHintName(uint32_t hint) {
  static const char* const kNames[] = {"char", "short", "int", "long", "half", "float", "double"};
  const uint32_t type = hint & 0xffff, count = hint >> 16;
  const std::string base = type < 7 ? kNames[type] : "unknown";
  return count > 1 ? fmt::format("{}{}", base, count) : base;
}

}  // namespace spvsim::spirv
