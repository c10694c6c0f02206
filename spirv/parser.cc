#include "spirv/parser.h"

#include <fmt/core.h>

#include <cstring>
#include <memory>

#include "spirv/binary.h"
#include "spirv/disassembly.h"
#include "spirv/error.h"
#include "spirv/instruction_info.h"
#include "spirv/layout.h"
#include "spirv/spec_constant_op.h"
#include "spirv/text.h"

namespace spvsim::spirv {
namespace {

using spv::Op;

// One instruction as SPIRV-Tools parsed it, before interpretation.
struct RawInstruction {
  Op opcode;
  Id resultType;
  Id result;
  std::vector<uint32_t> operands;  // words after result type and result id
  uint32_t wordOffset;
};

std::string readString(const std::vector<uint32_t>& words, size_t& pos) {
  std::string out;
  while (pos < words.size()) {
    uint32_t w = words[pos++];
    for (int b = 0; b < 4; ++b) {
      char c = static_cast<char>((w >> (8 * b)) & 0xff);
      if (c == 0) return out;
      out.push_back(c);
    }
  }
  return out;
}

class Decoder {
 public:
  Decoder(Module& module, std::vector<RawInstruction>& raw) : m_(module), raw_(raw) {}

  void run() {
    SourceLine line;
    for (uint32_t i = 0; i < raw_.size(); ++i) {
      RawInstruction& r = raw_[i];
      m_.instructionWordOffsets.push_back(r.wordOffset);
      if (r.opcode == Op::OpLine) {
        line = {r.operands.at(0), r.operands.at(1), r.operands.at(2)};
        continue;
      }
      if (r.opcode == Op::OpNoLine) {
        line = {};
        continue;
      }
      Instruction inst{r.opcode, r.resultType, r.result, std::move(r.operands), i, line};
      decode(inst);
      if (endsLineInfo(inst.opcode)) line = {};
    }
    if (fn_) throw Error(DiagnosticKind::InvalidModule, "function without OpFunctionEnd");
    finishEntryPoints();
    m_.moduleExtInsts = std::move(moduleExtInsts_);
  }

 private:
  // Line info ends with its block (and with the function).
  static bool endsLineInfo(Op op) { return isBlockTerminator(op) || op == Op::OpFunctionEnd; }

  void decode(Instruction& inst) {
    if (fn_ && decodeInFunction(inst)) return;
    switch (inst.opcode) {
      case Op::OpCapability:
        m_.capabilities.push_back(static_cast<spv::Capability>(inst.operands.at(0)));
        return;
      case Op::OpExtension: {
        size_t pos = 0;
        m_.extensions.push_back(readString(inst.operands, pos));
        return;
      }
      case Op::OpExtInstImport: {
        size_t pos = 0;
        m_.extInstImports[inst.result] = readString(inst.operands, pos);
        return;
      }
      case Op::OpMemoryModel:
        m_.addressing = static_cast<spv::AddressingModel>(inst.operands.at(0));
        return;
      case Op::OpEntryPoint:
        decodeEntryPoint(inst);
        return;
      case Op::OpExecutionMode:
      case Op::OpExecutionModeId:
        pendingModes_.push_back(std::move(inst));
        return;
      case Op::OpString: {
        size_t pos = 0;
        m_.strings[inst.result] = readString(inst.operands, pos);
        return;
      }
      case Op::OpName: {
        size_t pos = 1;
        m_.names[inst.operands.at(0)] = readString(inst.operands, pos);
        return;
      }
      case Op::OpDecorate:
      case Op::OpDecorateId:  // literals are then ids (AlignmentId, UniformId, ...)
        decodeDecoration(inst.operands.at(0), inst.operands, 1, false);
        return;
      case Op::OpDecorateString:
        decodeDecoration(inst.operands.at(0), inst.operands, 1, true);
        return;
      case Op::OpMemberDecorate:
      case Op::OpMemberDecorateString: {
        const bool text = inst.opcode == Op::OpMemberDecorateString;
        Decoration d{static_cast<spv::Decoration>(inst.operands.at(2)), {}, ""};
        size_t pos = 3;
        if (text) d.text = readString(inst.operands, pos);
        d.literals.assign(inst.operands.begin() + std::min(pos, inst.operands.size()),
                          inst.operands.end());
        m_.memberDecorations[{inst.operands[0], inst.operands[1]}].push_back(d);
        return;
      }
      case Op::OpDecorationGroup:
        return;  // its decorations are already recorded under the group's id
      case Op::OpGroupDecorate:
        for (size_t k = 1; k < inst.operands.size(); ++k) {
          auto it = m_.decorations.find(inst.operands[0]);
          if (it == m_.decorations.end()) continue;
          auto copy = it->second;
          auto& dst = m_.decorations[inst.operands[k]];
          dst.insert(dst.end(), copy.begin(), copy.end());
        }
        return;
      case Op::OpGroupMemberDecorate:
        return;  // member decorations carry nothing spvsim needs
      case Op::OpVariable:
        decodeGlobalVariable(inst);
        return;
      case Op::OpFunction:
        beginFunction(inst);
        return;
      case Op::OpUndef:
        decodeConstant(inst);
        return;
      default:
        break;
    }
    if (isTypeOp(inst.opcode)) return decodeType(inst);
    if (isConstantOp(inst.opcode)) return decodeConstant(inst);
    // Debug and source-level instructions that carry nothing executable.
    switch (inst.opcode) {
      case Op::OpSourceExtension: {
        size_t pos = 0;
        m_.sourceExtensions.push_back(readString(inst.operands, pos));
        return;
      }
      case Op::OpSource:
      case Op::OpSourceContinued:
      case Op::OpMemberName:
      case Op::OpModuleProcessed:
      case Op::OpNop:
      case Op::OpExtInst:  // module-level OpenCL.DebugInfo.100 instructions
        if (inst.opcode == Op::OpExtInst) moduleExtInsts_.push_back(inst);
        return;
      default:
        if (instructionInfo(inst.opcode).isFunctionScopeOnly())
          throw Error(DiagnosticKind::InvalidModule,
                      fmt::format("{} outside a function", opcodeName(inst.opcode)));
        throw Error(DiagnosticKind::Unsupported,
                    fmt::format("unsupported SPIR-V instruction {} at module scope",
                                opcodeName(inst.opcode)));
    }
  }

  static bool isTypeOp(Op op) {
    switch (op) {
      case Op::OpTypeVoid:
      case Op::OpTypeBool:
      case Op::OpTypeInt:
      case Op::OpTypeFloat:
      case Op::OpTypeVector:
      case Op::OpTypeArray:
      case Op::OpTypeRuntimeArray:
      case Op::OpTypeStruct:
      case Op::OpTypePointer:
      case Op::OpTypeFunction:
      case Op::OpTypeEvent:
      case Op::OpTypeDeviceEvent:
      case Op::OpTypeReserveId:
      case Op::OpTypeQueue:
      case Op::OpTypePipe:
      case Op::OpTypeImage:
      case Op::OpTypeSampler:
      case Op::OpTypeSampledImage:
      case Op::OpTypeOpaque:
      case Op::OpTypePipeStorage:
      case Op::OpTypeForwardPointer:
        return true;
      default:
        return false;
    }
  }

  static bool isConstantOp(Op op) {
    switch (op) {
      case Op::OpConstant:
      case Op::OpConstantTrue:
      case Op::OpConstantFalse:
      case Op::OpConstantComposite:
      case Op::OpConstantNull:
      case Op::OpConstantSampler:
      case Op::OpSpecConstant:
      case Op::OpSpecConstantTrue:
      case Op::OpSpecConstantFalse:
      case Op::OpSpecConstantComposite:
      case Op::OpSpecConstantOp:
        return true;
      default:
        return false;
    }
  }

  // `text`: the decoration's first literal is a string (OpDecorateString).
  void decodeDecoration(Id target, const std::vector<uint32_t>& ops, size_t first, bool text) {
    Decoration d{static_cast<spv::Decoration>(ops.at(first)), {}, ""};
    size_t pos = first + 1;
    if (text || d.kind == spv::Decoration::LinkageAttributes ||
        d.kind == spv::Decoration::UserSemantic) {
      d.text = readString(ops, pos);
    }
    d.literals.assign(ops.begin() + std::min(pos, ops.size()), ops.end());
    m_.decorations[target].push_back(std::move(d));
  }

  void decodeEntryPoint(const Instruction& inst) {
    EntryPoint ep;
    ep.function = inst.operands.at(1);
    size_t pos = 2;
    ep.name = readString(inst.operands, pos);
    ep.interface.assign(inst.operands.begin() + pos, inst.operands.end());
    ep.index = inst.index;
    if (static_cast<spv::ExecutionModel>(inst.operands[0]) != spv::ExecutionModel::Kernel)
      return;  // spvsim runs OpenCL kernels only; other models are ignored
    m_.entryPoints.push_back(std::move(ep));
  }

  void decodeType(const Instruction& inst) {
    Type t;
    if (inst.opcode == Op::OpTypeForwardPointer) {
      // A struct may name the pointer before its OpTypePointer (a linked list's `next`):
      // a pointer's layout needs no pointee, and the OpTypePointer replaces this.
      t.id = inst.operands.at(0);
      t.opcode = Op::OpTypePointer;
      t.kind = TypeKind::Pointer;
      t.storage = static_cast<spv::StorageClass>(inst.operands.at(1));
      computeLayout(m_, t);
      if (!m_.types.count(t.id)) m_.types[t.id] = std::move(t);
      return;
    }
    t.id = inst.result;
    t.opcode = inst.opcode;
    const auto& o = inst.operands;
    switch (inst.opcode) {
      case Op::OpTypeVoid:
        t.kind = TypeKind::Void;
        break;
      case Op::OpTypeBool:
        t.kind = TypeKind::Bool;
        break;
      case Op::OpTypeInt:
        t.kind = TypeKind::Int;
        t.width = o.at(0);
        t.isSigned = o.at(1) != 0;
        break;
      case Op::OpTypeFloat:
        t.kind = TypeKind::Float;
        t.width = o.at(0);
        break;
      case Op::OpTypeVector:
        t.kind = TypeKind::Vector;
        t.element = o.at(0);
        t.count = o.at(1);
        break;
      case Op::OpTypeArray:
        t.kind = TypeKind::Array;
        t.element = o.at(0);
        t.count = constantAsU64(o.at(1));
        break;
      case Op::OpTypeRuntimeArray:
        t.kind = TypeKind::RuntimeArray;
        t.element = o.at(0);
        break;
      case Op::OpTypeStruct:
        t.kind = TypeKind::Struct;
        t.members = o;
        t.packed = m_.hasDecoration(t.id, spv::Decoration::CPacked);
        break;
      case Op::OpTypePointer:
        t.kind = TypeKind::Pointer;
        t.storage = static_cast<spv::StorageClass>(o.at(0));
        t.element = o.at(1);
        break;
      case Op::OpTypeFunction:
        t.kind = TypeKind::Function;
        t.members = o;
        break;
      default:
        t.kind = TypeKind::Opaque;
        t.operands = o;
        break;
    }
    // Pointers may name a pointee declared later (forward pointers): no lookup needed.
    computeLayout(m_, t);
    m_.types[t.id] = std::move(t);
  }

  uint64_t constantAsU64(Id id) const {
    auto it = m_.constants.find(id);
    if (it == m_.constants.end())
      throw Error(DiagnosticKind::InvalidModule, fmt::format("%{} is not a constant", id));
    uint64_t v = 0;
    std::memcpy(&v, it->second.bytes.data(), std::min<size_t>(8, it->second.bytes.size()));
    return v;
  }

  // Large null and undefined values stay unexpanded (Constant::zeroFill); the others
  // count against kMaxConstantBytes before their bytes are allocated.
  void allocateConstant(Constant& c, const Type& t, Op op) {
    if ((op == Op::OpConstantNull || op == Op::OpUndef) && t.size > kMaxExpandedNullBytes) {
      c.zeroFill = true;
      return;
    }
    if (t.size > kMaxConstantBytes - constantBytes_)
      throw Error(DiagnosticKind::Unsupported,
                  fmt::format("unsupported: the module's constants take more than {} MiB (at "
                              "{}, {} of {} bytes); spvsim expands at most {} MiB",
                              kMaxConstantBytes >> 20, idName(m_, c.id),
                              escapeText(typeName(m_, c.type)), t.size, kMaxConstantBytes >> 20));
    constantBytes_ += t.size;
    c.bytes.assign(t.size, 0);
  }

  void decodeConstant(Instruction& inst) {
    Constant c;
    c.id = inst.result;
    c.type = inst.resultType;
    c.index = inst.index;
    const Type& t = m_.type(c.type);
    allocateConstant(c, t, inst.opcode);
    const auto& o = inst.operands;
    switch (inst.opcode) {
      case Op::OpConstant:
      case Op::OpSpecConstant:
        for (size_t k = 0; k < o.size() && 4 * k < c.bytes.size(); ++k)
          std::memcpy(c.bytes.data() + 4 * k, &o[k], std::min<size_t>(4, c.bytes.size() - 4 * k));
        break;
      case Op::OpConstantTrue:
      case Op::OpSpecConstantTrue:
        c.bytes[0] = 1;
        break;
      case Op::OpConstantFalse:
      case Op::OpSpecConstantFalse:
      case Op::OpConstantNull:
        break;
      case Op::OpUndef:
        c.isUndef = true;
        break;
      case Op::OpConstantComposite:
      case Op::OpSpecConstantComposite:
        fillComposite(c, t, o);
        break;
      case Op::OpSpecConstantOp:
        evaluateSpecConstantOp(m_, inst, c);
        break;
      case Op::OpConstantSampler:
        // addressing mode, normalized, filter: kept as the opaque value's bits.
        c.bytes[0] = static_cast<uint8_t>(o.at(0) | (o.at(1) << 3) | (o.at(2) << 4));
        break;
      default:
        throw Error(DiagnosticKind::Unsupported,
                    fmt::format("unsupported SPIR-V instruction {} ({})", opcodeName(inst.opcode),
                                idName(m_, inst.result)));
    }
    switch (inst.opcode) {
      case Op::OpSpecConstant:
      case Op::OpSpecConstantTrue:
      case Op::OpSpecConstantFalse:
      case Op::OpSpecConstantComposite:
        c.isSpec = true;
        if (auto* d = m_.findDecoration(c.id, spv::Decoration::SpecId))
          c.specId = d->literals.at(0);
        break;
      default:
        break;
    }
    m_.constants[c.id] = std::move(c);
  }

  // Constituents may be constants or (for pointer members) variables' addresses.
  void fillComposite(Constant& c, const Type& t, const std::vector<uint32_t>& parts) {
    for (size_t k = 0; k < parts.size(); ++k) {
      std::optional<Constant> part = m_.constantValue(parts[k]);
      if (!part)
        throw Error(DiagnosticKind::InvalidModule,
                    fmt::format("constituent %{} of %{} is not a constant", parts[k], c.id));
      uint64_t offset = 0;
      if (t.kind == TypeKind::Struct)
        offset = t.memberOffsets.at(k);
      else
        offset = k * m_.type(t.element).size;
      if (part->zeroFill) continue;  // c.bytes are zero already
      const auto& b = part->bytes;
      if (offset + b.size() > c.bytes.size())
        throw Error(DiagnosticKind::InvalidModule,
                    fmt::format("composite %{} overflows its type", c.id));
      std::memcpy(c.bytes.data() + offset, b.data(), b.size());
      for (Relocation r : part->relocations) {
        r.at += offset;
        c.relocations.push_back(r);
      }
    }
  }

  void decodeGlobalVariable(const Instruction& inst) {
    Variable v;
    v.id = inst.result;
    v.type = inst.resultType;
    v.storage = static_cast<spv::StorageClass>(inst.operands.at(0));
    if (inst.operands.size() > 1) v.initializer = inst.operands[1];
    v.index = inst.index;
    if (auto* d = m_.findDecoration(v.id, spv::Decoration::BuiltIn))
      v.builtin = static_cast<spv::BuiltIn>(d->literals.at(0));
    m_.variables[v.id] = v;
    m_.globalVariables.push_back(v);
  }

  void beginFunction(const Instruction& inst) {
    fn_ = std::make_unique<Function>();
    fn_->id = inst.result;
    fn_->resultType = inst.resultType;
    fn_->functionType = inst.operands.at(1);
    fn_->index = inst.index;
    if (auto* d = m_.findDecoration(fn_->id, spv::Decoration::LinkageAttributes)) {
      fn_->linkName = d->text;
      fn_->isImport =
          !d->literals.empty() && d->literals[0] == static_cast<uint32_t>(spv::LinkageType::Import);
    }
  }

  // Returns true when the instruction belongs to the function being decoded.
  bool decodeInFunction(Instruction& inst) {
    switch (inst.opcode) {
      case Op::OpFunctionParameter:
        fn_->params.push_back(inst.result);
        fn_->paramTypes.push_back(inst.resultType);
        return true;
      case Op::OpLabel:
        fn_->blocks.push_back(Block{inst.result, {}});
        return true;
      case Op::OpFunctionEnd:
        m_.functionIndex[fn_->id] = m_.functions.size();
        m_.functions.push_back(std::move(*fn_));
        fn_.reset();
        return true;
      case Op::OpUndef:
        decodeConstant(inst);
        return true;
      case Op::OpLine:
      case Op::OpNoLine:
        return true;
      default:
        if (fn_->blocks.empty())
          throw Error(DiagnosticKind::InvalidModule,
                      fmt::format("instruction {} outside a block", opcodeName(inst.opcode)));
        fn_->blocks.back().instructions.push_back(std::move(inst));
        return true;
    }
  }

  void finishEntryPoints() {
    for (auto& mode : pendingModes_) {
      ExecutionMode em{static_cast<spv::ExecutionMode>(mode.operands.at(1)),
                       {mode.operands.begin() + 2, mode.operands.end()}};
      if (mode.opcode == Op::OpExecutionModeId)
        for (auto& lit : em.literals) lit = static_cast<uint32_t>(constantAsU64(lit));
      for (auto& ep : m_.entryPoints)
        if (ep.function == mode.operands[0]) ep.modes.push_back(em);
    }
    for (auto& ep : m_.entryPoints) ep.signature = buildSignature(m_, ep);
  }

  Module& m_;
  std::vector<RawInstruction>& raw_;
  std::unique_ptr<Function> fn_;
  std::vector<Instruction> pendingModes_;
  std::vector<Instruction> moduleExtInsts_;
  uint64_t constantBytes_ = 0;  // expanded so far (kMaxConstantBytes)
};

// The operand words after result type and result id, which the decoder interprets.
std::vector<RawInstruction> rawInstructions(const Binary& binary) {
  std::vector<RawInstruction> out;
  out.reserve(binary.code.size());
  size_t offset = kHeaderWords;
  for (const BinaryInstruction& inst : binary.code) {
    const size_t skip = 1 + (inst.type ? 1 : 0) + (inst.result ? 1 : 0);
    out.push_back({inst.op, inst.type, inst.result,
                   std::vector<uint32_t>(inst.words.begin() + std::min(skip, inst.words.size()),
                                         inst.words.end()),
                   static_cast<uint32_t>(offset)});
    offset += inst.words.size();
  }
  return out;
}

}  // namespace

Module parseModule(std::vector<uint32_t> words) {
  const Binary binary = decodeBinary(words);  // throws naming what is malformed
  std::vector<RawInstruction> raw = rawInstructions(binary);
  Module m;
  m.version = binary.version();
  m.generator = binary.generator();
  m.bound = binary.header[3];
  m.words = std::move(words);
  Decoder(m, raw).run();
  return m;
}

}  // namespace spvsim::spirv
