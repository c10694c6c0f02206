#include "spirv/layout.h"

#include <fmt/core.h>

#include "spirv/error.h"

namespace spvsim::spirv {

uint32_t intContainerBytes(uint32_t bits) {
  if (bits <= 8) return 1;
  if (bits <= 16) return 2;
  if (bits <= 32) return 4;
  if (bits <= 64) return 8;
  throw Error(DiagnosticKind::Unsupported, fmt::format("unsupported: {}-bit integers", bits));
}

namespace {

uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

[[noreturn]] void tooLarge(const Type& type, const std::string& size) {
  throw Error(DiagnosticKind::Unsupported,
              fmt::format("unsupported: type %{} is {} bytes; spvsim supports "
                          "types of at most 2^37 bytes",
                          type.id, size));
}

// a * b for a type's size, refusing results above kMaxTypeBytes.
uint64_t sizeProduct(const Type& type, uint64_t a, uint64_t b) {
  uint64_t p;
  if (__builtin_mul_overflow(a, b, &p)) tooLarge(type, fmt::format("{} x {}", a, b));
  if (p > kMaxTypeBytes) tooLarge(type, fmt::format("{}", p));
  return p;
}

void layoutStruct(const Module& module, Type& type) {
  uint64_t offset = 0, align = 1;
  type.memberOffsets.clear();
  for (Id member : type.members) {
    const Type& m = module.type(member);
    uint64_t a = type.packed ? 1 : m.align;
    offset = alignUp(offset, a);
    type.memberOffsets.push_back(offset);
    offset += m.size;  // members are at most kMaxTypeBytes: no overflow before the check
    if (offset > kMaxTypeBytes) tooLarge(type, fmt::format("more than {}", offset));
    align = std::max(align, a);
  }
  type.align = align;
  type.size = alignUp(offset, align);
}

}  // namespace

void computeLayout(const Module& module, Type& type) {
  switch (type.kind) {
    case TypeKind::Void:
    case TypeKind::Function:
      type.size = 0;
      type.align = 1;
      return;
    case TypeKind::Bool:
      type.size = type.align = 1;
      return;
    case TypeKind::Int:
      type.size = type.align = intContainerBytes(type.width);
      return;
    case TypeKind::Float:
      if (type.width != 16 && type.width != 32 && type.width != 64)
        throw Error(DiagnosticKind::Unsupported,
                    fmt::format("unsupported: {}-bit floats", type.width));
      type.size = type.align = type.width / 8;
      return;
    case TypeKind::Pointer:
      type.size = type.align = module.addressing == spv::AddressingModel::Physical32 ? 4 : 8;
      return;
    case TypeKind::Opaque:
      // Images, samplers, events, queues, pipes: spvsim's 8-byte handles in every module.
      // OpenCL C cannot take their size (no sizeof, no struct members), so nothing sees it.
      type.size = type.align = 8;
      return;
    case TypeKind::Vector: {
      const Type& e = module.type(type.element);
      uint64_t n = type.count == 3 ? 4 : type.count;
      type.size = sizeProduct(type, e.size, n);
      type.align = type.size;
      return;
    }
    case TypeKind::Array: {
      const Type& e = module.type(type.element);
      type.size = sizeProduct(type, e.size, type.count);
      type.align = e.align;
      return;
    }
    case TypeKind::RuntimeArray:
      type.size = 0;
      type.align = module.type(type.element).align;
      return;
    case TypeKind::Struct:
      layoutStruct(module, type);
      return;
  }
}

}  // namespace spvsim::spirv
