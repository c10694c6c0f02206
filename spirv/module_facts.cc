#include "spirv/module_facts.h"

#include <fmt/core.h>

#include <algorithm>
#include <unordered_set>

#include "spirv/binary.h"
#include "spirv/disassembly.h"
#include "spirv/error.h"
#include "spirv/read_back_loads.h"

namespace spvsim::spirv {

using spv::Op;

ModuleFacts::ModuleFacts(const Module& module) : module_(module) {
  collectValueTypes();
  collectFunctionUses();
  for (size_t k = 0; k < module_.entryPoints.size(); ++k) {
    entryPointByName_.emplace(module_.entryPoints[k].name, k);  // the first of a name wins
    kernels_.push_back(kernelFacts(module_.entryPoints[k]));
  }
  debugVariables_ = spirv::debugVariables(module_);
  for (size_t k = 0; k < debugVariables_.size(); ++k)
    debugVariablesById_[debugVariables_[k].id].push_back(static_cast<uint32_t>(k));
}

void ModuleFacts::collectValueTypes() {
  for (const auto& [id, c] : module_.constants) valueTypes_[id] = c.type;
  for (const auto& v : module_.globalVariables) valueTypes_[v.id] = v.type;
  for (const auto& f : module_.functions) {
    for (size_t k = 0; k < f.params.size(); ++k) valueTypes_[f.params[k]] = f.paramTypes[k];
    for (const auto& b : f.blocks)
      for (const auto& i : b.instructions)
        if (i.result && i.resultType) valueTypes_[i.result] = i.resultType;
  }
}

// A module-scope variable an instruction names, or one whose address a constant it
// names holds.
void ModuleFacts::noteUse(Id id, FunctionUses& uses) const {
  if (module_.variables.count(id)) {
    uses.variables.push_back(id);
    return;
  }
  auto c = module_.constants.find(id);
  if (c == module_.constants.end()) return;
  for (const Relocation& r : c->second.relocations) uses.variables.push_back(r.variable);
}

// The id operands need the grammar (decoded operands mix ids and literals), so function
// bodies are walked in the binary.
void ModuleFacts::collectFunctionUses() {
  std::optional<Binary> binary = parseBinary(module_.words);
  std::optional<std::vector<FunctionSpan>> spans;
  if (binary) spans = functionSpans(*binary);
  if (!spans) throw Error(DiagnosticKind::InvalidModule, "the module's functions cannot be parsed");
  for (const FunctionSpan& span : *spans) {
    FunctionUses& uses = functionUses_[binary->code[span.function].result];
    for (size_t at = span.function + 1; at < span.functionEnd; ++at) {
      const BinaryInstruction& inst = binary->code[at];
      if (inst.op == Op::OpFunctionCall) uses.callees.push_back(inst.word(3));
      if (inst.op == Op::OpVariable) {
        const Type* pointer = module_.findType(inst.type);
        const Type* pointee = pointer ? module_.findType(pointer->element) : nullptr;
        if (pointee) uses.functionVariableBytes += pointee->size;
      }
      forEachIdOperand(inst, [&](Id id) { noteUse(id, uses); });
    }
  }
}

// `variable` and, through its initializer, every variable whose address it starts with.
void ModuleFacts::addVariableClosure(Id variable, std::unordered_map<Id, bool>& seen,
                                     std::vector<Id>& out) const {
  if (!seen.emplace(variable, true).second) return;
  out.push_back(variable);
  auto v = module_.variables.find(variable);
  if (v == module_.variables.end() || !v->second.initializer) return;
  const Id init = v->second.initializer;
  if (module_.variables.count(init)) return addVariableClosure(init, seen, out);
  auto c = module_.constants.find(init);
  if (c == module_.constants.end()) return;
  for (const Relocation& r : c->second.relocations) addVariableClosure(r.variable, seen, out);
}

KernelFacts ModuleFacts::kernelFacts(const EntryPoint& entry) const {
  KernelFacts k;
  std::unordered_set<Id> reached{entry.function};
  std::vector<Id> work{entry.function};
  std::unordered_map<Id, bool> seenVariables;
  while (!work.empty()) {
    const Id f = work.back();
    work.pop_back();
    k.functions.push_back(f);
    auto uses = functionUses_.find(f);
    if (uses == functionUses_.end()) continue;  // not a function: lowering reports it
    k.functionVariableBytes += uses->second.functionVariableBytes;
    for (Id v : uses->second.variables) addVariableClosure(v, seenVariables, k.variables);
    for (auto c = uses->second.callees.rbegin(); c != uses->second.callees.rend(); ++c)
      if (reached.insert(*c).second) work.push_back(*c);
  }
  std::sort(k.variables.begin(), k.variables.end(), [&](Id a, Id b) {
    return module_.variables.at(a).index < module_.variables.at(b).index;
  });
  for (Id id : k.variables) {
    const Variable& v = module_.variables.at(id);
    if (v.storage != spv::StorageClass::Workgroup) continue;
    k.workgroupVariables.push_back(id);
    k.workgroupBytes += module_.type(module_.type(v.type).element).size;
  }
  return k;
}

const EntryPoint* ModuleFacts::findEntryPoint(std::string_view name) const {
  auto it = entryPointByName_.find(std::string(name));
  return it == entryPointByName_.end() ? nullptr : &module_.entryPoints[it->second];
}

const KernelFacts& ModuleFacts::kernel(const EntryPoint& entry) const {
  const auto& eps = module_.entryPoints;
  if (eps.empty() || &entry < eps.data() || &entry >= eps.data() + eps.size())
    throw Error(DiagnosticKind::Internal,
                fmt::format("kernel {} is not of this module", entry.name));
  return kernels_[&entry - eps.data()];
}

const std::vector<uint32_t>& ModuleFacts::debugVariablesOf(Id id) const {
  static const std::vector<uint32_t> kNone;
  auto it = debugVariablesById_.find(id);
  return it == debugVariablesById_.end() ? kNone : it->second;
}

void ModuleFacts::computeText() const {
  text_ = disassembleLines(module_);
  names_ = friendlyNames(disassembleLines(module_, true), text_);
  for (const auto& [id, name] : names_) ids_.emplace(name, id);
  lines_.assign(std::max(text_.size(), module_.instructionWordOffsets.size()), "");
  for (const auto& f : module_.functions)
    for (const auto& b : f.blocks)
      for (const auto& i : b.instructions)
        if (i.line && i.index < lines_.size()) lines_[i.index] = module_.describeLine(i.line);
}

const std::string& ModuleFacts::instructionText(uint32_t index) const {
  static const std::string kNone;
  std::call_once(textOnce_, [this] { computeText(); });
  return index < text_.size() ? text_[index] : kNone;
}

std::string ModuleFacts::idName(Id id) const {
  std::call_once(textOnce_, [this] { computeText(); });
  auto it = names_.find(id);
  return it == names_.end() ? fmt::format("%{}", id) : "%" + it->second;
}

Id ModuleFacts::idNamed(std::string_view name) const {
  std::call_once(textOnce_, [this] { computeText(); });
  auto it = ids_.find(std::string(name));
  return it == ids_.end() ? 0 : it->second;
}

const std::string& ModuleFacts::instructionLine(uint32_t index) const {
  static const std::string kNone;
  std::call_once(textOnce_, [this] { computeText(); });
  return index < lines_.size() ? lines_[index] : kNone;
}

bool ModuleFacts::readsBack(uint32_t index) const {
  std::call_once(readBacksOnce_, [&] { readBacks_ = readBackLoads(module_); });
  return std::binary_search(readBacks_.begin(), readBacks_.end(), index);
}

}  // namespace spvsim::spirv
