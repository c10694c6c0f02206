#include "spirv/binary.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>

#include "spirv/error.h"
#include "spirv/instruction_info.h"

namespace spvsim::spirv {
namespace {

using spv::Op;

BinaryInstruction decoded(const WordInstruction& w, std::vector<Operand> operands) {
  BinaryInstruction inst;
  inst.op = w.op;
  for (const Operand& o : operands) {
    if (o.kind == OperandKind::IdResultType) inst.type = w.words[o.offset];
    if (o.kind == OperandKind::IdResult) inst.result = w.words[o.offset];
  }
  inst.words.assign(w.words.begin(), w.words.end());
  inst.operands = std::move(operands);
  return inst;
}

bool isLineInstruction(Op op) { return op == Op::OpLine || op == Op::OpNoLine || op == Op::OpNop; }

// The block starting at `at` (lines first, then OpLabel ... terminator), or nullopt.
std::optional<BlockSpan> blockAt(const std::vector<BinaryInstruction>& code, size_t at) {
  BlockSpan block;
  block.begin = at;
  while (at < code.size() && isLineInstruction(code[at].op)) ++at;
  if (at >= code.size() || code[at].op != Op::OpLabel) return std::nullopt;
  block.label = at++;
  for (; at < code.size(); ++at) {
    const Op op = code[at].op;
    if (op == Op::OpLabel || op == Op::OpFunction || op == Op::OpFunctionEnd) return std::nullopt;
    if (isBlockTerminator(op)) {
      block.terminator = at;
      block.end = at + 1;
      return block;
    }
  }
  return std::nullopt;
}

// The function whose OpFunction is at `at`, or nullopt.
std::optional<FunctionSpan> functionAt(const std::vector<BinaryInstruction>& code, size_t at) {
  FunctionSpan fn;
  fn.function = at++;
  while (at < code.size() && code[at].op == Op::OpFunctionParameter) ++at;
  for (;;) {
    size_t next = at;
    while (next < code.size() && isLineInstruction(code[next].op)) ++next;
    if (next >= code.size()) return std::nullopt;
    if (code[next].op == Op::OpFunctionEnd) {
      fn.functionEnd = next;
      if (!fn.blocks.empty()) fn.blocks.back().end = next;  // trailing lines
      return fn;
    }
    std::optional<BlockSpan> block = blockAt(code, at);
    if (!block) return std::nullopt;
    fn.blocks.push_back(*block);
    at = block->end;
  }
}

}  // namespace

std::string BinaryInstruction::string(size_t at) const {
  std::string s;
  for (size_t k = at; k < words.size(); ++k)
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((words[k] >> (8 * b)) & 0xff);
      if (!c) return s;
      s.push_back(c);
    }
  return s;
}

namespace {

// The words of `inst` with its opcode word made from its length and opcode.
std::vector<uint32_t> encoded(const BinaryInstruction& inst) {
  std::vector<uint32_t> out = inst.words;
  if (out.empty()) out.push_back(0);
  out[0] = (static_cast<uint32_t>(out.size()) << 16) | static_cast<uint32_t>(inst.op);
  return out;
}

}  // namespace

std::vector<WordInstruction> leadingInstructions(std::span<const uint32_t> words) {
  std::vector<WordInstruction> out;
  for (InstructionWalker walker(words); !walker.done();) {
    const WordInstruction inst = walker.next();
    if (!precedesDebugSection(inst.op) && !isSourceInstruction(inst.op)) break;
    out.push_back(inst);
  }
  return out;
}

void insertInstruction(std::vector<uint32_t>& words, size_t offset, const BinaryInstruction& inst) {
  if (offset < kHeaderWords || offset > words.size())
    throw Error(
        DiagnosticKind::InvalidModule,
        fmt::format("no instruction can be inserted at word {} of {}", offset, words.size()));
  const std::vector<uint32_t> add = encoded(inst);
  words.insert(words.begin() + static_cast<std::ptrdiff_t>(offset), add.begin(), add.end());
}

void replaceInstruction(std::vector<uint32_t>& words, size_t offset,
                        const BinaryInstruction& inst) {
  const uint32_t count = offset < words.size() ? words[offset] >> 16 : 0;
  if (offset < kHeaderWords || count == 0 || count > words.size() - offset)
    throw Error(DiagnosticKind::InvalidModule,
                fmt::format("no instruction starts at word {} of {}", offset, words.size()));
  const std::vector<uint32_t> with = encoded(inst);
  const auto at = words.begin() + static_cast<std::ptrdiff_t>(offset);
  if (with.size() == count) {
    std::copy(with.begin(), with.end(), at);
    return;
  }
  words.erase(at, at + count);
  words.insert(words.begin() + static_cast<std::ptrdiff_t>(offset), with.begin(), with.end());
}

BinaryInstruction makeInstruction(Op op, Id type, Id result, std::vector<uint32_t> rest) {
  BinaryInstruction inst;
  inst.op = op;
  inst.type = type;
  inst.result = result;
  inst.words.push_back(0);
  if (type) inst.words.push_back(type);
  if (result) inst.words.push_back(result);
  inst.words.insert(inst.words.end(), rest.begin(), rest.end());
  inst.words[0] = (static_cast<uint32_t>(inst.words.size()) << 16) | static_cast<uint32_t>(op);
  return inst;
}

std::vector<uint32_t> encodeString(const std::string& s) {
  std::vector<uint32_t> words(s.size() / 4 + 1, 0);
  std::memcpy(words.data(), s.data(), s.size());
  return words;
}

bool Binary::hasCapability(spv::Capability c) const {
  for (const BinaryInstruction& inst : code)
    if (inst.op == Op::OpCapability && inst.word(1) == static_cast<uint32_t>(c)) return true;
  return false;
}

std::unordered_set<Id> extInstImports(const Binary& binary, std::string_view set) {
  std::unordered_set<Id> out;
  for (const BinaryInstruction& inst : binary.code)
    if (inst.op == Op::OpExtInstImport && inst.string(2) == set) out.insert(inst.result);
  return out;
}

std::unordered_map<Id, size_t> Binary::definitions() const {
  std::unordered_map<Id, size_t> out;
  for (size_t i = 0; i < code.size(); ++i)
    if (code[i].result) out.emplace(code[i].result, i);
  return out;
}

std::vector<uint32_t> Binary::encode() const {
  std::vector<uint32_t> words(header.begin(), header.end());
  for (const BinaryInstruction& inst : code) {
    const size_t first = words.size();
    words.insert(words.end(), inst.words.begin(), inst.words.end());
    words[first] =
        (static_cast<uint32_t>(inst.words.size()) << 16) | static_cast<uint32_t>(inst.op);
  }
  return words;
}

Binary decodeBinary(std::span<const uint32_t> words) {
  Binary binary;
  InstructionWalker walker(words);
  std::copy(words.begin(), words.begin() + kHeaderWords, binary.header.begin());
  OperandDecoder decoder;
  while (!walker.done()) {
    const WordInstruction w = walker.next();
    binary.code.push_back(decoded(w, decoder.decode(w)));
  }
  return binary;
}

std::optional<Binary> parseBinary(const std::vector<uint32_t>& words) {
  try {
    return decodeBinary(words);
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::optional<std::vector<FunctionSpan>> functionSpans(const Binary& binary) {
  std::vector<FunctionSpan> out;
  const auto& code = binary.code;
  for (size_t at = 0; at < code.size(); ++at) {
    if (code[at].op != Op::OpFunction) continue;
    std::optional<FunctionSpan> fn = functionAt(code, at);
    if (!fn) return std::nullopt;
    at = fn->functionEnd;
    out.push_back(std::move(*fn));
  }
  return out;
}

}  // namespace spvsim::spirv
