#include "spirv/operands.h"

#include <fmt/core.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "spirv/error.h"

namespace spvsim::spirv {

// Extended sets by OpExtInstImport name; non-semantic sets take ids only (SPIR-V 2.2.1).
struct OperandDecoder::ExtSet {
  enum : int { OpenclStd, OpenclDebugInfo, NonSemantic };
};

struct OperandDecoder::Cursor {
  const WordInstruction& inst;
  std::string_view name;
  size_t at = 1;
  std::vector<Operand> out;

  size_t left() const { return inst.words.size() - at; }
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(DiagnosticKind::InvalidModule,
                fmt::format("malformed instruction {} at word {}: {}", name, inst.offset, what));
  }
  void take(OperandKind kind, size_t words) {
    if (words > left())
      fail(fmt::format("operand {} needs {} word(s), {} left", out.size() + 1, words, left()));
    out.push_back({static_cast<uint16_t>(at), static_cast<uint16_t>(words), kind});
    at += words;
  }
};

namespace {

std::string literalString(std::span<const uint32_t> words, size_t at) {
  std::string s;
  for (size_t k = at; k < words.size(); ++k)
    for (int b = 0; b < 4; ++b) {
      const char ch = static_cast<char>((words[k] >> (8 * b)) & 0xff);
      if (!ch) return s;
      s.push_back(ch);
    }
  return s;
}

// Words of a nul-terminated string starting at `at`, or 0 when no word holds the nul.
size_t stringWords(std::span<const uint32_t> words, size_t at) {
  for (size_t k = at; k < words.size(); ++k)
    for (int b = 0; b < 4; ++b)
      if (((words[k] >> (8 * b)) & 0xff) == 0) return k - at + 1;
  return 0;
}

}  // namespace

std::vector<Operand> OperandDecoder::decode(const WordInstruction& inst) {
  const InstructionInfo info = instructionInfo(inst.op);
  Cursor c{inst, info.row ? info.name() : std::string_view("?")};
  if (!info.row) c.fail(fmt::format("unknown opcode {}", static_cast<uint32_t>(inst.op)));
  decodeList(c, info.operands());
  if (c.left()) c.fail(fmt::format("{} word(s) after the last operand", c.left()));
  remember(inst, c.out);
  return std::move(c.out);
}

void OperandDecoder::decodeList(Cursor& c, std::span<const OperandDesc> list) {
  for (const OperandDesc& d : list) {
    if (d.quantifier == Quantifier::One)
      decodeOne(c, d.kind);
    else if (d.quantifier == Quantifier::Optional && c.left())
      decodeOne(c, d.kind);
    else
      while (d.quantifier == Quantifier::Many && c.left()) decodeOne(c, d.kind);
  }
}

void OperandDecoder::decodeOne(Cursor& c, OperandKind kind) {
  switch (kind) {
    case OperandKind::IdResult:
      c.take(kind, 1);
      if (c.inst.words[c.at - 1] == 0) c.fail("result id 0");
      return;
    case OperandKind::LiteralString: {
      const size_t n = stringWords(c.inst.words, c.at);
      if (!n) c.fail("string without terminating nul");
      c.take(kind, n);
      return;
    }
    case OperandKind::LiteralContextDependentNumber:   // OpConstant, OpSpecConstant
      c.take(kind, literalWords(c, c.inst.words[1]));  // the result type's width
      return;
    case OperandKind::PairLiteralIntegerIdRef: {  // OpSwitch: selector's width
      auto selector = typeOf_.find(c.inst.words[1]);
      c.take(OperandKind::LiteralInteger,
             literalWords(c, selector == typeOf_.end() ? 0 : selector->second));
      c.take(OperandKind::IdRef, 1);
      return;
    }
    case OperandKind::PairIdRefLiteralInteger:
      c.take(OperandKind::IdRef, 1);
      c.take(OperandKind::LiteralInteger, 1);
      return;
    case OperandKind::PairIdRefIdRef:
      c.take(OperandKind::IdRef, 1);
      c.take(OperandKind::IdRef, 1);
      return;
    case OperandKind::LiteralSpecConstantOpInteger: {  // the opcode, then its operands
      c.take(kind, 1);
      const InstructionInfo info = instructionInfo(static_cast<spv::Op>(c.inst.words[c.at - 1]));
      if (!info.row) c.fail(fmt::format("unknown opcode {}", c.inst.words[c.at - 1]));
      std::span<const OperandDesc> ops = info.operands();
      const size_t skip = (info.hasResultType() ? 1 : 0) + (info.hasResult() ? 1 : 0);
      decodeList(c, ops.subspan(std::min(skip, ops.size())));
      return;
    }
    case OperandKind::LiteralExtInstInteger:
      c.take(kind, 1);
      decodeExtInst(c);
      return;
    default:
      break;
  }
  c.take(kind, 1);
  // An enumerant: the operands its value (or each set bit of a mask) takes follow it.
  const uint32_t value = c.inst.words[c.at - 1];
  if (isValueEnum(kind)) return decodeList(c, enumerantParameters(kind, value));
  if (!isBitEnum(kind)) return;
  for (uint32_t bit = 1; bit && bit <= value; bit <<= 1)
    if (value & bit) decodeList(c, enumerantParameters(kind, bit));
}

void OperandDecoder::decodeExtInst(Cursor& c) {
  const uint32_t set = c.inst.words[3], number = c.inst.words[4];
  auto it = extSetOf_.find(set);
  if (it == extSetOf_.end()) c.fail(fmt::format("%{} is not an OpExtInstImport", set));
  if (it->second == ExtSet::NonSemantic) return;  // the core grammar's `IdRef *` follows
  const grammar::InstructionRow* row =
      it->second == ExtSet::OpenclStd ? findOpenclStd(number) : findOpenclDebugInfo(number);
  if (!row) c.fail(fmt::format("unknown extended instruction {}", number));
  decodeList(c, InstructionInfo{row}.operands());
}

uint32_t OperandDecoder::literalWords(Cursor& c, uint32_t type) {
  auto width = widthOfType_.find(type);
  if (width == widthOfType_.end())
    c.fail("a literal whose type is not a declared integer or float type");
  // SPIR-V 2.2.1: as many words as the width needs (two for 64 bits), at least one.
  return std::max<uint32_t>(1, (width->second + 31) / 32);
}

void OperandDecoder::remember(const WordInstruction& inst, const std::vector<Operand>& operands) {
  uint32_t type = 0, result = 0;
  for (const Operand& o : operands) {
    if (o.kind == OperandKind::IdResultType) type = inst.words[o.offset];
    if (o.kind == OperandKind::IdResult) result = inst.words[o.offset];
  }
  if (type && result) typeOf_[result] = type;
  if ((inst.op == spv::Op::OpTypeInt || inst.op == spv::Op::OpTypeFloat) && inst.words.size() > 2)
    widthOfType_[result] = inst.words[2];
  if (inst.op != spv::Op::OpExtInstImport) return;
  const std::string name = literalString(inst.words, 2);
  if (name == "OpenCL.std")
    extSetOf_[result] = ExtSet::OpenclStd;
  else if (name == "OpenCL.DebugInfo.100")
    extSetOf_[result] = ExtSet::OpenclDebugInfo;
  else if (name.rfind("NonSemantic.", 0) == 0)
    extSetOf_[result] = ExtSet::NonSemantic;
  else
    throw Error(DiagnosticKind::Unsupported,
                fmt::format("unsupported extended instruction set \"{}\"", name));
}

}  // namespace spvsim::spirv
