// The decoded form of one SPIR-V module: what the loader produces and the simulator
// consumes. Plain data; nothing here knows about execution.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <spirv/unified1/spirv.hpp11>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "spirv/kernel_signature.h"

namespace spvsim::spirv {

using Id = uint32_t;

enum class TypeKind {
  Void,
  Bool,
  Int,
  Float,
  Vector,
  Array,
  RuntimeArray,
  Struct,
  Pointer,
  Function,
  Opaque,  // event, sampler, image, queue, pipe, reserve id, ...
};

struct Type {
  Id id = 0;
  spv::Op opcode = spv::Op::OpNop;
  TypeKind kind = TypeKind::Void;
  uint32_t width = 0;       // Int/Float: bits
  bool isSigned = false;    // Int: signedness bit as declared (OpenCL uses 0)
  Id element = 0;           // Vector/Array/RuntimeArray: element; Pointer: pointee
  uint64_t count = 0;       // Vector: components; Array: length
  std::vector<Id> members;  // Struct: member types; Function: return, then params
  spv::StorageClass storage = spv::StorageClass::Max;  // Pointer
  bool packed = false;                                 // Struct decorated CPacked
  // Opaque: the operands as declared (OpTypeImage: sampled type, Dim, Depth, Arrayed, MS,
  // Sampled, Format[, access qualifier]; OpTypePipe: access qualifier).
  std::vector<uint32_t> operands;

  // Memory layout under OpenCL C rules (filled by the loader): size includes
  // trailing padding; vec3 is laid out as vec4.
  uint64_t size = 0;
  uint64_t align = 1;
  std::vector<uint64_t> memberOffsets;  // Struct
};

struct Decoration {
  spv::Decoration kind;
  std::vector<uint32_t> literals;
  std::string text;  // LinkageAttributes name, UserSemantic, ...
};

struct SourceLine {
  Id file = 0;  // OpString id
  uint32_t line = 0;
  uint32_t column = 0;
  explicit operator bool() const { return file != 0; }
};

// One instruction as it appears in the binary. Operands are the raw words after the
// result type and result id (ids and literals alike); `index` is its position among all
// instructions of the module, which names it in diagnostics and disassembly.
struct Instruction {
  spv::Op opcode = spv::Op::OpNop;
  Id resultType = 0;
  Id result = 0;
  std::vector<uint32_t> operands;
  uint32_t index = 0;
  SourceLine line;
  // OpExtInst: the instruction set's import id and the instruction number.
  Id extSet() const { return operands.at(0); }
  uint32_t extOpcode() const { return operands.at(1); }
};

struct Block {
  Id label = 0;
  std::vector<Instruction> instructions;  // OpPhi first, terminator last
};

struct Function {
  Id id = 0;
  Id resultType = 0;
  Id functionType = 0;
  std::vector<Id> params;
  std::vector<Id> paramTypes;
  std::vector<Block> blocks;  // entry block first
  uint32_t index = 0;         // index of the OpFunction instruction
  bool isImport = false;      // declaration with Import linkage (no body)
  std::string linkName;
};

// The address of a module-scope variable inside a constant's bytes: a link-time value
// that only the simulator, which places the variables, can fill in.
struct Relocation {
  uint64_t at = 0;      // byte offset of the pointer within Constant::bytes
  Id variable = 0;      // the module-scope variable whose address goes there
  uint64_t offset = 0;  // plus this many bytes
};

// Limits the loader enforces, so that a small module cannot make it (or `spvsim dis`,
// `info`) allocate without bound.
// Types larger than this are refused: no larger object can be placed (pointer offsets
// hold +-2^38, src/exec/memory.h).
inline constexpr uint64_t kMaxTypeBytes = 1ull << 37;
// OpConstantNull / OpUndef values larger than this are kept unexpanded (zeroFill).
inline constexpr uint64_t kMaxExpandedNullBytes = 4096;
// The expanded bytes of all of a module's constants together.
inline constexpr uint64_t kMaxConstantBytes = 256ull << 20;

struct Constant {
  Id id = 0;
  Id type = 0;
  std::vector<uint8_t> bytes;           // value in memory layout (Type::size bytes)
  std::vector<Relocation> relocations;  // pointers to variables (their bytes are 0 here)
  // A large OpConstantNull / OpUndef: `bytes` is empty and the value is Type::size zero
  // bytes (kMaxExpandedNullBytes).
  bool zeroFill = false;
  bool isSpec = false;
  bool isUndef = false;
  std::optional<uint32_t> specId;
  uint32_t index = 0;
};

struct Variable {
  Id id = 0;
  Id type = 0;  // pointer type
  spv::StorageClass storage = spv::StorageClass::Max;
  Id initializer = 0;
  std::optional<spv::BuiltIn> builtin;
  uint32_t index = 0;
};

struct ExecutionMode {
  spv::ExecutionMode mode;
  std::vector<uint32_t> literals;
};

struct EntryPoint {
  std::string name;
  Id function = 0;  // the entry point function (clang's wrapper)
  std::vector<Id> interface;
  std::vector<ExecutionMode> modes;
  KernelSignature signature;  // parameters and launch attributes (spirv/kernel_signature.h)
  uint32_t index = 0;

  const ExecutionMode* findMode(spv::ExecutionMode mode) const {
    for (const auto& m : modes)
      if (m.mode == mode) return &m;
    return nullptr;
  }
};

// A producer's defect that the loader repaired before validation (spirv/normalize.h).
struct Repair {
  std::string rule;      // "block order: blocks laid out before their dominator"
  std::string producer;  // "Khronos LLVM/SPIR-V Translator" (from the generator word)
  uint32_t count = 0;    // places repaired
};

struct Module {
  uint32_t version = 0;  // 0x00MMmm00
  uint32_t generator = 0;
  uint32_t bound = 0;
  std::vector<uint32_t> words;  // the binary as loaded (after repairs)
  std::vector<Repair> repairs;  // what the loader repaired, in the order applied
  spv::AddressingModel addressing = spv::AddressingModel::Physical64;
  std::vector<spv::Capability> capabilities;
  std::vector<std::string> extensions;
  std::vector<std::string> sourceExtensions;           // OpSourceExtension texts
  std::unordered_map<Id, std::string> extInstImports;  // id -> set name

  std::unordered_map<Id, Type> types;
  std::unordered_map<Id, Constant> constants;
  std::unordered_map<Id, Variable> variables;  // module-scope only
  std::vector<Variable> globalVariables;       // module-scope, in order
  std::vector<Function> functions;             // in binary order
  std::unordered_map<Id, size_t> functionIndex;
  std::vector<EntryPoint> entryPoints;
  std::unordered_map<Id, std::string> names;    // OpName
  std::unordered_map<Id, std::string> strings;  // OpString
  std::unordered_map<Id, std::vector<Decoration>> decorations;
  std::map<std::pair<Id, uint32_t>, std::vector<Decoration>> memberDecorations;
  std::vector<uint32_t> instructionWordOffsets;  // by Instruction::index
  // Module-scope OpExtInst instructions (OpenCL.DebugInfo.100 types, scopes, variables;
  // spirv/debug_info.h reads them), in binary order.
  std::vector<Instruction> moduleExtInsts;
  // Instruction::index of atomics that may be OpenCL 1.x atomic_* built-ins which
  // llvm-spirv translated with Workgroup scope (spirv/legacy_atomics.h).
  std::unordered_set<uint32_t> possiblyLegacyAtomics;

  const Type& type(Id id) const;
  const Type* findType(Id id) const;
  // The value of a constant, or of a module-scope variable's address (which
  // initializers and constant operations may name); nullopt for other ids.
  std::optional<Constant> constantValue(Id id) const;
  const Function* findFunction(Id id) const;
  // The function that `function` only calls: its one block is OpFunctionCall and
  // OpReturn (llvm-spirv's kernel wrappers); nullptr otherwise.
  const Function* onlyCallee(Id function) const;
  const EntryPoint* findEntryPoint(std::string_view name) const;
  const Decoration* findDecoration(Id id, spv::Decoration kind) const;
  bool hasDecoration(Id id, spv::Decoration kind) const {
    return findDecoration(id, kind) != nullptr;
  }
  // Whether parameter `id` is decorated FuncParamAttr `attr` (ByVal, NoWrite, ...).
  bool hasParamAttr(Id id, spv::FunctionParameterAttribute attr) const;
  // OpName or "%<id>", for messages: control characters escaped (spirv/text.h). Lookups
  // by name use `names`, which holds the names as they are.
  std::string nameOf(Id id) const;
  // "file:line" for a source line (the file name escaped), or "" when there is none.
  std::string describeLine(const SourceLine& line) const;
  uint32_t majorVersion() const { return (version >> 16) & 0xff; }
  uint32_t minorVersion() const { return (version >> 8) & 0xff; }
};

// A readable name for a type, in OpenCL C terms where possible: "float4", "int*", ...
// (struct names escaped, as nameOf).
std::string typeName(const Module& module, Id type);

// The instructions of the module's functions by their Instruction::index (nullptr where
// an index is not a function body's instruction: declarations, types, constants).
std::vector<const Instruction*> instructionsByIndex(const Module& module);

}  // namespace spvsim::spirv
