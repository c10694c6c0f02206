// A kernel's signature as front ends see it: its parameters in OpenCL C terms (address
// space, type name, qualifiers, how each takes its argument) and the attributes that
// constrain a launch. The loader builds one per entry point, so the command line and the
// OpenCL runtime describe and check arguments from the same facts.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spvsim::spirv {

using Id = uint32_t;
struct Module;
struct EntryPoint;

enum class AddressSpace { Private, Global, Constant, Local, Generic };

// How a parameter takes its argument.
enum class ParamKind {
  Value,            // scalar or vector by value
  ByValStruct,      // struct (or union) by value: a pointer to a private copy (ByVal)
  GlobalPointer,    // global or generic pointer: a buffer or NULL
  ConstantPointer,  // constant pointer: a buffer or NULL
  LocalPointer,     // local pointer: a size of local memory
  Image,
  Sampler,
  Pipe,
  Queue,
  Event,
};

// The OpenCL C access qualifier (images and pipes; none for the rest).
enum class AccessQualifier { None, ReadOnly, WriteOnly, ReadWrite };

// Type qualifier bits, with the values of CL_KERNEL_ARG_TYPE_* in the OpenCL API.
enum TypeQualifier : uint32_t {
  kQualConst = 1,
  kQualRestrict = 2,
  kQualVolatile = 4,
  kQualPipe = 8,
};

struct ParamSignature {
  uint32_t index = 0;
  Id id = 0;           // the entry point function's OpFunctionParameter
  Id type = 0;         // its SPIR-V type
  std::string name;    // OpName (of the wrapper's or clang's inner kernel's parameter), or "argN"
  bool named = false;  // the module names it (clGetKernelArgInfo's CL_KERNEL_ARG_NAME)
  // As OpenCL C spells it, without the address space: "int*", "float4", "struct S".
  std::string typeName;
  ParamKind kind = ParamKind::Value;
  AddressSpace addressSpace = AddressSpace::Private;  // pointers; Global for images, pipes
  AccessQualifier access = AccessQualifier::None;
  uint32_t qualifiers = 0;  // TypeQualifier bits
  bool readOnly = false;    // the kernel does not write through it (NoWrite, or constant)
  uint64_t size = 0;        // Value, ByValStruct: bytes of the argument; pointers: 8
  bool isFloating = false;  // Value: a floating-point scalar or vector
  // Global/constant pointers to a scalar or vector of 2+ bytes: what a buffer element
  // should be (char and void pointers take any buffer); 0: no expectation.
  uint64_t pointeeSize = 0;
  uint64_t pointeeComponentSize = 0;  // its scalar component's bytes (pointeeSize for a scalar)
  bool pointeeFloating = false;
  Id pointee = 0;  // pointers: the pointee type; ByValStruct: the struct
  std::optional<uint64_t> alignment;

  bool isPointer() const {
    return kind == ParamKind::GlobalPointer || kind == ParamKind::ConstantPointer ||
           kind == ParamKind::LocalPointer;
  }
  bool isOpaque() const { return kind >= ParamKind::Image; }
  // "argument 2 (dst)"
  std::string label() const;
  // "global float* dst"
  std::string declaration() const;
};

struct KernelSignature {
  std::string name;
  std::vector<ParamSignature> params;
  std::optional<std::array<uint32_t, 3>> requiredWorkGroupSize;  // reqd_work_group_size
  std::optional<std::array<uint32_t, 3>> workGroupSizeHint;      // work_group_size_hint
  std::optional<std::string> vecTypeHint;                        // "float4"
  std::optional<uint32_t> requiredSubGroupSize;                  // intel_reqd_sub_group_size
};

// The signature of an entry point whose modes the loader has collected. Type names and
// qualifiers come from the kernel_arg_type / kernel_arg_type_qual strings that programs
// built from source carry, else from the SPIR-V types and decorations.
KernelSignature buildSignature(const Module& module, const EntryPoint& ep);

// "global", "constant", "local", "private" (generic pointers read as global).
const char* addressSpaceName(AddressSpace space);
// "read_only", "write_only", "read_write", "none".
const char* accessQualifierName(AccessQualifier access);
// "const restrict", or "" without qualifiers.
std::string qualifierNames(uint32_t qualifiers);

// "float4" for a VecTypeHint literal (SPIR-V: component type in the low 16 bits, count in
// the high 16).
std::string vecTypeHintName(uint32_t hint);

}  // namespace spvsim::spirv
