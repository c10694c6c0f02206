#include "spirv/disassembly.h"

#include <fmt/core.h>

#include <spirv-tools/libspirv.hpp>

#include "spirv/grammar_tables.inc"
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
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string text;
  tools.Disassemble(module.words, &text,
                    SPV_BINARY_TO_TEXT_OPTION_NO_HEADER | SPV_BINARY_TO_TEXT_OPTION_INDENT |
                        (rawIds ? 0 : SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES));
  std::vector<std::string> lines = splitLines(text);
  for (std::string& line : lines) line.erase(0, std::min(line.size(), line.find_first_not_of(' ')));
  return lines;
}

std::unordered_map<Id, std::string> friendlyNames(const Module& module) {
  return friendlyNames(disassembleLines(module, true), disassembleLines(module));
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
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string text;
  tools.Disassemble(module.words, &text,
                    SPV_BINARY_TO_TEXT_OPTION_INDENT | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES);
  std::string out;
  size_t index = 0;
  for (std::string& line : splitLines(text)) {
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
