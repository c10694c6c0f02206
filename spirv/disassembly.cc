#include "spirv/disassembly.h"

#include <fmt/core.h>

#include <spirv-tools/libspirv.hpp>

#include "spirv/binary.h"
#include "spirv/error.h"
#include "spirv/grammar_tables.inc"
#include "spirv/instruction_info.h"
#include "spirv/text.h"

namespace spvsim::spirv {
namespace {

const char* lookup(const grammar::NamedValue* begin, const grammar::NamedValue* end,
                   uint32_t value) {
  for (auto* p = begin; p != end; ++p)
    if (p->value == value) return p->name;
  return nullptr;
}

// SPIRV-Tools' text, one entry per line. A string literal keeps its characters as they
// are (only `"` and `\` are backslash-escaped), so a newline inside quotes is not the end
// of an instruction: it and other control characters are escaped (spirv/text.h), and
// each instruction stays one line.
std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n' && !quoted) {
      lines.push_back(escapeText(line));
      line.clear();
      continue;
    }
    line += c;
    if (c == '"') quoted = !quoted;
    if (c == '\\' && quoted && i + 1 < text.size()) line += text[++i];
  }
  if (!line.empty()) lines.push_back(escapeText(line));
  return lines;
}

// An instruction SPIRV-Tools refused to print, and why.
struct Refused {
  size_t index;  // in the module's instructions
  std::string why;
};

// Instruction `k` of the module's text, written from its words: its result and the
// extended-instruction name as SPIRV-Tools printed the stand-in (`line`, which ends in
// "DebugInfoNone"), then each operand: ids as `nameOf` names them, strings quoted, other
// words as numbers (the value SPIRV-Tools refused among them).
std::string writeRefused(const BinaryInstruction& inst, const std::string& line,
                         const std::unordered_map<Id, std::string>& nameOf,
                         const std::string& why) {
  const grammar::InstructionRow* row = findOpenclDebugInfo(inst.word(4));
  std::string out = line.substr(0, line.rfind("DebugInfoNone"));
  out += row ? row->name : fmt::format("<{}>", inst.word(4));
  for (const Operand& o : inst.operands) {
    if (o.offset <= 4) continue;  // result type, result, set, instruction
    if (isIdOperand(o.kind)) {
      auto it = nameOf.find(inst.word(o.offset));
      out += " " + (it != nameOf.end() ? it->second : fmt::format("%{}", inst.word(o.offset)));
    } else if (o.kind == OperandKind::LiteralString) {
      out += " \"" + escapeText(inst.string(o.offset)) + "\"";
    } else {
      for (uint16_t w = 0; w < o.words; ++w) out += fmt::format(" {}", inst.word(o.offset + w));
    }
  }
  return out + "  ; SPIRV-Tools cannot print this instruction: " + escapeText(why);
}

// SPIRV-Tools' text of `words` with `options`, one entry per line. SPIRV-Tools refuses a
// whole module for one operand value it cannot print, and llvm-spirv-15 -g writes one:
// OpenCL.DebugInfo.100 DebugTypePointer with Storage Class ~0, its "no address space"
// (the pointers behind image2d_t, sampler_t, queue_t, ...), which SPIRV-Tools 2023.1
// refuses ("Invalid storage class operand: 4294967295"). spvsim validates without that
// set (spirv/validator.h) and executes none of it, so such an instruction is shown from
// its own words: SPIRV-Tools prints a copy in which it is DebugInfoNone (the same result
// id), and its line is then written from spvsim's grammar of the set. Anything else
// SPIRV-Tools refuses is an error naming SPIRV-Tools' reason.
std::vector<std::string> disassembleText(const std::vector<uint32_t>& words, uint32_t options) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string message;
  size_t position = 0;
  tools.SetMessageConsumer(
      [&](spv_message_level_t level, const char*, const spv_position_t& at, const char* text) {
        if (level > SPV_MSG_ERROR || !message.empty()) return;
        message = text;
        position = at.index;  // the instruction count, the refused one included
      });
  std::vector<uint32_t> shown = words;
  std::optional<Binary> binary, standIn;
  std::vector<Refused> refused;
  std::string text;
  while (!tools.Disassemble(shown, &text, options)) {
    if (!binary) binary = parseBinary(words), standIn = binary;
    const size_t k = position - 1;
    const bool debugInfo =
        binary && position > 0 && k < binary->code.size() &&
        isExtInstOf(binary->code[k], extInstImports(*binary, kOpenclDebugInfo)) &&
        binary->code[k].result != 0 && (refused.empty() || refused.back().index < k);
    if (!debugInfo)
      throw Error(DiagnosticKind::InvalidModule,
                  fmt::format("SPIRV-Tools cannot disassemble the module: {} (instruction {})",
                              escapeText(message.empty() ? "unknown reason" : message), position));
    refused.push_back({k, message});
    const BinaryInstruction& inst = binary->code[k];
    standIn->code[k] = makeInstruction(spv::Op::OpExtInst, inst.type, inst.result,
                                       {inst.word(3), 0});  // DebugInfoNone
    shown = standIn->encode();
    message.clear();
    text.clear();
  }
  std::vector<std::string> lines = splitLines(text);
  if (refused.empty()) return lines;
  // Instruction k's line follows the header comments (none with NO_HEADER).
  size_t header = 0;
  while (header < lines.size() && lines[header].rfind(";", 0) == 0) ++header;
  std::unordered_map<Id, std::string> nameOf;
  for (size_t k = 0; k < binary->code.size() && header + k < lines.size(); ++k) {
    const std::string& line = lines[header + k];
    const size_t start = line.find_first_not_of(' '), eq = line.find(" = ");
    if (binary->code[k].result && start != std::string::npos && eq != std::string::npos)
      nameOf.emplace(binary->code[k].result, line.substr(start, eq - start));
  }
  for (const Refused& r : refused)
    if (header + r.index < lines.size())
      lines[header + r.index] =
          writeRefused(binary->code[r.index], lines[header + r.index], nameOf, r.why);
  return lines;
}

}  // namespace

std::string opcodeName(spv::Op op) {
  auto v = static_cast<uint32_t>(op);
  if (auto* n = lookup(std::begin(grammar::kOpcodes), std::end(grammar::kOpcodes), v)) return n;
  return fmt::format("Op<{}>", v);
}

std::string openclStdName(uint32_t instruction) {
  if (auto* n = lookup(std::begin(grammar::kOpenclStd), std::end(grammar::kOpenclStd), instruction))
    return n;
  return fmt::format("<{}>", instruction);
}

std::vector<std::string> disassembleLines(const Module& module, bool rawIds) {
  std::vector<std::string> lines = disassembleText(
      module.words, SPV_BINARY_TO_TEXT_OPTION_NO_HEADER | SPV_BINARY_TO_TEXT_OPTION_INDENT |
                        (rawIds ? 0 : SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES));
  for (std::string& line : lines) line.erase(0, std::min(line.size(), line.find_first_not_of(' ')));
  return lines;
}

std::unordered_map<Id, std::string> friendlyNames(const Module& module) {
  try {
    return friendlyNames(disassembleLines(module, true), disassembleLines(module));
  } catch (const Error&) {  // for messages about a module SPIRV-Tools cannot print: numbers
    return {};
  }
}

std::string idName(const Module& module, Id id) {
  const auto names = friendlyNames(module);
  auto it = names.find(id);
  return it == names.end() ? fmt::format("%{}", id) : "%" + it->second;
}

// SPIRV-Tools' name mapper is internal to the library; its names show in the text.
std::unordered_map<Id, std::string> friendlyNames(const std::vector<std::string>& raw,
                                                  const std::vector<std::string>& named) {
  std::unordered_map<Id, std::string> names;
  auto resultOf = [](const std::string& line) -> std::string {
    const size_t eq = line.find(" = ");
    return line.size() > 1 && line[0] == '%' && eq != std::string::npos ? line.substr(1, eq - 1)
                                                                        : "";
  };
  for (size_t i = 0; i < raw.size() && i < named.size(); ++i) {
    const std::string id = resultOf(raw[i]), name = resultOf(named[i]);
    if (id.empty() || name.empty() || id == name) continue;
    names.emplace(static_cast<Id>(std::stoul(id)), name);
  }
  return names;
}

std::string disassembleWithLines(const Module& module) {
  std::vector<SourceLine> lineOf(module.instructionWordOffsets.size());
  for (const auto& f : module.functions)
    for (const auto& b : f.blocks)
      for (const auto& i : b.instructions)
        if (i.index < lineOf.size()) lineOf[i.index] = i.line;
  std::string out;
  size_t index = 0;
  for (std::string& line :
       disassembleText(module.words, SPV_BINARY_TO_TEXT_OPTION_INDENT |
                                         SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES)) {
    if (line.rfind(";", 0) == 0) {  // header comments
      out += line + "\n";
      continue;
    }
    if (index < lineOf.size() && lineOf[index]) {
      std::string where = module.describeLine(lineOf[index]);
      size_t pad = line.size() < 72 ? 72 - line.size() : 1;
      line += std::string(pad, ' ') + "; " + where;
    }
    out += line + "\n";
    ++index;
  }
  return out;
}

}  // namespace spvsim::spirv
