#include "src/debugger/debug_symbols.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "spirv/cfg.h"
#include "spirv/error.h"
#include "src/files/input_file.h"
#include "src/values/text_util.h"

namespace spvsim::debugger {

using values::endsWith;
using values::parseUnsigned;
using values::trim;
namespace {

bool sameLine(const spirv::SourceLine& a, const spirv::SourceLine& b) {
  return a.file == b.file && a.line == b.line;
}

bool allDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

uint32_t parseLineNumber(std::string_view s, std::string_view text) {
  uint64_t v = 0;
  if (!parseUnsigned(s, v) || v == 0 || v > 0xffffffffu)
    throw DebugError(fmt::format("'{}': {} is not a line number", text, s));
  return static_cast<uint32_t>(v);
}

}  // namespace

Symbols::Symbols(const spirv::Module& module, const LoweredKernel& kernel)
    : module_(module), kernel_(kernel) {
  lineByIndex_.resize(module.instructionWordOffsets.size());
  resultIndex_.assign(module.bound + 1, 0);
  for (const auto& f : module.functions)
    for (const auto& b : f.blocks)
      for (const auto& i : b.instructions) {
        if (i.index < lineByIndex_.size()) lineByIndex_[i.index] = i.line;
        if (i.result && i.result < resultIndex_.size()) resultIndex_[i.result] = i.index + 1;
      }
  functionOfPc_.assign(kernel.code.size(), 0);
  for (uint32_t f = 0; f < kernel.functions.size(); ++f)
    for (uint32_t pc = kernel.functions[f].entryPc;
         pc <= kernel.functions[f].exitPc && pc < kernel.code.size(); ++pc)
      functionOfPc_[pc] = f;
  for (uint32_t pc = 0; pc < kernel.code.size(); ++pc)
    if (spirv::SourceLine l = lineAt(pc)) {
      hasLines_ = true;
      if (!mainFile_) mainFile_ = l.file;
    }
  buildDominators();
}

void Symbols::buildDominators() {
  places_.resize(lineByIndex_.size());
  for (uint32_t f = 0; f < module_.functions.size(); ++f) {
    const spirv::Function& fn = module_.functions[f];
    std::vector<uint32_t> sizes;
    for (size_t b = 0; b < fn.blocks.size(); ++b) {
      const auto& insts = fn.blocks[b].instructions;
      sizes.push_back(static_cast<uint32_t>(insts.size()));
      for (uint32_t k = 0; k < insts.size(); ++k)
        if (insts[k].index < places_.size()) places_[insts[k].index] = {f, int(b), k};
    }
    std::vector<int> idom;
    if (!fn.blocks.empty()) {
      idom = spirv::immediateDominators(spirv::functionCfg(module_, fn).successors, 0);
      idom[0] = -1;  // the entry has no dominator to walk up to
    }
    idom_.push_back(std::move(idom));
    blockSizes_.push_back(std::move(sizes));
  }
}

// How far a DebugValue at instruction `from` lies before instruction `src` walking up
// the dominator tree (smaller is nearer), or nullopt when it does not reach `src`.
std::optional<uint64_t> Symbols::bindingDistance(uint32_t from, uint32_t src) const {
  if (from >= places_.size() || src >= places_.size()) return std::nullopt;
  const Place& a = places_[from];
  const Place& at = places_[src];
  if (a.function != at.function || a.function == ~0u || a.block < 0 || at.block < 0)
    return std::nullopt;
  if (a.block == at.block) {
    if (a.position < at.position) return at.position - a.position;
  }
  const std::vector<int>& idom = idom_[a.function];
  uint64_t depth = 1;
  for (int b = idom[at.block]; b >= 0; b = idom[b], ++depth) {
    if (b == a.block) return (depth << 32) + (blockSizes_[a.function][b] - a.position);
    if (depth > idom.size()) break;
  }
  return std::nullopt;
}

spirv::SourceLine Symbols::lineAt(uint32_t pc) const {
  if (pc >= kernel_.code.size() || isFunctionExit(pc)) return {};
  const uint32_t src = kernel_.code[pc].src;
  if (src >= lineByIndex_.size() || lineByIndex_[src].line == 0) return {};  // 0: artificial
  return lineByIndex_[src];
}

std::string Symbols::filePath(spirv::Id file) const {
  auto it = module_.strings.find(file);
  return it == module_.strings.end() ? fmt::format("%{}", file) : it->second;
}

std::string Symbols::sourcePath(spirv::Id file) const {
  const files::SourceCopy* copy = copies_.find(filePath(file));
  return copy ? copy->path : filePath(file);
}

std::string Symbols::fileName(spirv::Id file) const {
  const std::string path = filePath(file);
  if (const files::SourceCopy* copy = copies_.find(path)) return copy->shownAs;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string Symbols::where(uint32_t pc) const {
  const spirv::SourceLine l = lineAt(pc);
  return l ? fmt::format("{}:{}", fileName(l.file), l.line) : "";
}

std::string Symbols::instructionText(uint32_t pc) const {
  if (pc >= kernel_.code.size()) return "(no instruction)";
  if (isFunctionExit(pc)) return fmt::format("(exit of function {})", functionName(functionAt(pc)));
  const uint32_t src = kernel_.code[pc].src;
  const std::string& text = kernel_.instructionText(src);
  return !text.empty() ? text : fmt::format("(instruction {})", src);
}

std::string Symbols::describe(uint32_t pc) const {
  const std::string at = where(pc);
  return at.empty() ? instructionText(pc) : at + "  " + instructionText(pc);
}

uint32_t Symbols::functionAt(uint32_t pc) const {
  return pc < functionOfPc_.size() ? functionOfPc_[pc] : 0;
}

const std::string& Symbols::functionName(uint32_t function) const {
  return kernel_.functions.at(function).name;
}

bool Symbols::isFunctionExit(uint32_t pc) const {
  return pc < functionOfPc_.size() && kernel_.functions[functionOfPc_[pc]].exitPc == pc;
}

std::optional<uint32_t> Symbols::findFunction(std::string_view name) const {
  for (uint32_t f = 0; f < kernel_.functions.size(); ++f)
    if (kernel_.functions[f].name == name) return f;
  if (kernel_.entry && kernel_.entry->name == name) return 0;
  return std::nullopt;
}

std::vector<spirv::Id> Symbols::filesMatching(std::string_view text) const {
  std::set<spirv::Id> files;
  for (const auto& l : lineByIndex_)
    if (l) files.insert(l.file);
  std::vector<spirv::Id> out;
  for (spirv::Id f : files) {
    const std::string path = filePath(f);
    if (path == text || endsWith(path, "/" + std::string(text)) || fileName(f) == text)
      out.push_back(f);
  }
  return out;
}

std::vector<uint32_t> Symbols::lineSites(spirv::Id file, uint32_t line) const {
  std::vector<uint32_t> sites;
  spirv::SourceLine previous;  // the last line seen in the current function
  uint32_t function = ~0u;
  for (uint32_t pc = 0; pc < kernel_.code.size(); ++pc) {
    if (functionAt(pc) != function) {
      function = functionAt(pc);
      previous = {};
    }
    const spirv::SourceLine l = lineAt(pc);
    if (!l) continue;
    if (l.file == file && l.line == line && !sameLine(previous, l)) sites.push_back(pc);
    previous = l;
  }
  return sites;
}

CodeLocation Symbols::lineLocation(spirv::Id file, uint32_t line) const {
  CodeLocation loc;
  loc.pcs = lineSites(file, line);
  loc.description = fmt::format("{}:{}", fileName(file), line);
  if (!loc.pcs.empty()) return loc;
  uint32_t next = 0;  // the first later line of the file that has code
  for (uint32_t pc = 0; pc < kernel_.code.size(); ++pc) {
    const spirv::SourceLine l = lineAt(pc);
    if (l.file == file && l.line > line && (!next || l.line < next)) next = l.line;
  }
  if (!next)
    throw DebugError(fmt::format("no code at {} or after it in kernel {}", loc.description,
                                 kernel_.entry ? kernel_.entry->name : "?"));
  CodeLocation later = lineLocation(file, next);
  later.note = fmt::format("no code at {}; using line {}", loc.description, next);
  return later;
}

CodeLocation Symbols::resolve(std::string_view text, spirv::Id currentFile) const {
  text = trim(text);
  if (text.empty()) throw DebugError("give a location: FILE:LINE, LINE, %ID or FUNCTION");
  if (text[0] == '%') {
    uint64_t id = 0;
    if (!parseUnsigned(text.substr(1), id)) id = kernel_.facts->idNamed(text.substr(1));
    if (id == 0 || id >= resultIndex_.size())
      throw DebugError(fmt::format("'{}' is not a result id of this module", text));
    for (uint32_t f = 0; f < kernel_.functions.size(); ++f)
      if (kernel_.functions[f].id == id)
        return {{kernel_.functions[f].entryPc}, "function " + kernel_.functions[f].name, ""};
    CodeLocation loc;
    loc.description = std::string(text);
    const uint32_t index = resultIndex_[id];
    for (uint32_t pc = 0; index && pc < kernel_.code.size(); ++pc)
      if (kernel_.code[pc].src == index - 1 && !isFunctionExit(pc) &&
          (pc == 0 || kernel_.code[pc - 1].src != index - 1))
        loc.pcs.push_back(pc);
    if (loc.pcs.empty())
      throw DebugError(fmt::format(
          "{} is not an instruction that kernel {} executes (a constant, type, variable, "
          "OpPhi, debug information, or in a function the kernel never calls)",
          text, kernel_.entry ? kernel_.entry->name : "?"));
    return loc;
  }
  if (allDigits(text)) {
    const spirv::Id file = currentFile ? currentFile : mainFile_;
    if (!file)
      throw DebugError(
          "the module has no source lines (compile the .cl with -g; spvsim debug "
          "does so for .cl inputs)");
    return lineLocation(file, parseLineNumber(text, text));
  }
  const size_t colon = text.rfind(':');
  if (colon != std::string_view::npos && allDigits(text.substr(colon + 1))) {
    const std::string_view name = text.substr(0, colon);
    const std::vector<spirv::Id> files = filesMatching(name);
    if (files.empty())
      throw DebugError(hasLines_ ? fmt::format("no source file '{}' in the module's line "
                                               "information",
                                               name)
                                 : "the module has no source lines (compile the .cl with -g)");
    if (files.size() > 1)
      throw DebugError(
          fmt::format("'{}' matches several source files; give more of the path", name));
    return lineLocation(files[0], parseLineNumber(text.substr(colon + 1), text));
  }
  if (auto f = findFunction(text))
    return {{afterPrologue(*f)}, "function " + kernel_.functions[*f].name, ""};
  std::string known;
  for (const auto& f : kernel_.functions) known += (known.empty() ? "" : ", ") + f.name;
  throw DebugError(
      fmt::format("no function '{}' in kernel {} (functions: {}); a location is "
                  "FILE:LINE, LINE, %ID or FUNCTION",
                  text, kernel_.entry ? kernel_.entry->name : "?", known));
}

const spirv::Instruction* Symbols::instructionAt(uint32_t pc) const {
  const uint32_t src = kernel_.code[pc].src;
  if (src >= places_.size() || places_[src].block < 0) return nullptr;
  const Place& p = places_[src];
  return &module_.functions[p.function].blocks[p.block].instructions[p.position];
}

uint32_t Symbols::afterPrologue(uint32_t function) const {
  const LoweredFunction& f = kernel_.functions[function];
  const spirv::Function* fn = nullptr;
  for (const spirv::Function& candidate : module_.functions)
    if (candidate.id == f.id) fn = &candidate;
  if (!fn || !hasLines_) return f.entryPc;
  for (uint32_t pc = f.entryPc; pc < f.exitPc; ++pc) {
    const spirv::Instruction* in = instructionAt(pc);
    if (!in) continue;
    const bool storesParameter =
        in->opcode == spv::Op::OpStore && in->operands.size() > 1 &&
        std::find(fn->params.begin(), fn->params.end(), in->operands[1]) != fn->params.end();
    if (!storesParameter && lineAt(pc)) return pc;
  }
  return f.entryPc;
}

const ValueName* Symbols::pick(std::string_view name, uint32_t function, uint32_t src) const {
  const ValueName* plain = nullptr;
  const ValueName* bound = nullptr;
  uint64_t nearest = ~0ull;
  for (const ValueName& n : kernel_.names) {
    if (n.name != name || n.function != function) continue;
    if (n.address) return &n;
    if (n.from == 0) {
      if (!plain) plain = &n;
    } else if (const auto d = bindingDistance(n.from, src); d && *d < nearest) {
      nearest = *d;
      bound = &n;
    }
  }
  return plain ? plain : bound;
}

const ValueName* Symbols::findName(std::string_view name, uint32_t function, uint32_t src) const {
  if (const ValueName* n = pick(name, function, src)) return n;
  if (const ValueName* n = pick(name, kNoFunction, src)) return n;
  for (uint32_t f = 0; f < kernel_.functions.size(); ++f)
    if (f != function)
      if (const ValueName* n = pick(name, f, ~0u)) return n;
  return nullptr;
}

bool Symbols::hasName(std::string_view name) const {
  for (const ValueName& n : kernel_.names)
    if (n.name == name) return true;
  return false;
}

std::vector<const ValueName*> Symbols::localNames(uint32_t function, uint32_t src) const {
  std::vector<const ValueName*> out;
  std::set<std::string> seen;
  for (const ValueName& n : kernel_.names) {
    if (n.function != function || !seen.insert(n.name).second) continue;
    if (const ValueName* best = pick(n.name, function, src)) out.push_back(best);
  }
  return out;
}

std::vector<const ValueName*> Symbols::argumentNames(uint32_t function, uint32_t src) const {
  std::map<uint32_t, const ValueName*> byNumber;
  for (const ValueName& n : kernel_.names)
    if (n.function == function && n.argNumber && !byNumber.count(n.argNumber))
      if (const ValueName* best = pick(n.name, function, src)) byNumber[n.argNumber] = best;
  std::vector<const ValueName*> out;
  for (const auto& [number, name] : byNumber) out.push_back(name);
  return out;
}

const std::vector<std::string>& Symbols::sourceLines(spirv::Id file) const {
  auto it = sources_.find(file);
  if (it != sources_.end()) return it->second;
  // A source that cannot be read, or is no regular file (a FIFO would block the session),
  // lists as no lines.
  std::vector<std::string> lines;
  std::string text;
  try {
    text = files::readInputFile(sourcePath(file));
  } catch (const Error&) {
  }
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return sources_.emplace(file, std::move(lines)).first->second;
}

}  // namespace spvsim::debugger
