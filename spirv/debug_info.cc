#include "spirv/debug_info.h"

#include <fmt/core.h>
#include <spirv/unified1/OpenCLDebugInfo100.h>

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace spvsim::spirv {
namespace {

constexpr int kMaxDepth = 16;  // type and scope chains are short; guards against cycles

class DebugInfoReader {
 public:
  explicit DebugInfoReader(const Module& m) : m_(m) {
    for (const auto& [id, name] : m.extInstImports)
      if (name == "OpenCL.DebugInfo.100") sets_.push_back(id);
    for (const Instruction& i : m.moduleExtInsts)
      if (isDebug(i) && i.result) byId_[i.result] = &i;
  }

  std::vector<DebugVariable> run() const {
    std::vector<DebugVariable> out;
    if (sets_.empty()) return out;
    for (const Instruction& i : m_.moduleExtInsts)
      if (isDebug(i) && i.extOpcode() == OpenCLDebugInfo100DebugGlobalVariable) addGlobal(i, out);
    for (const Function& f : m_.functions)
      for (const Block& b : f.blocks)
        for (const Instruction& i : b.instructions)
          if (isDebug(i) && (i.extOpcode() == OpenCLDebugInfo100DebugDeclare ||
                             i.extOpcode() == OpenCLDebugInfo100DebugValue))
            addLocal(f, i, out);
    return out;
  }

 private:
  bool isDebug(const Instruction& i) const {
    if (i.opcode != spv::Op::OpExtInst || i.operands.size() < 2) return false;
    for (Id s : sets_)
      if (i.extSet() == s) return true;
    return false;
  }

  // Argument k of a debug instruction (after the set and the instruction number), or 0.
  static Id arg(const Instruction& i, size_t k) {
    return 2 + k < i.operands.size() ? i.operands[2 + k] : 0;
  }

  const Instruction* debug(Id id, uint32_t opcode) const {
    auto it = byId_.find(id);
    return it != byId_.end() && it->second->extOpcode() == opcode ? it->second : nullptr;
  }

  const Instruction* debugAny(Id id) const {
    auto it = byId_.find(id);
    return it == byId_.end() ? nullptr : it->second;
  }

  std::string string(Id id) const {
    auto it = m_.strings.find(id);
    return it == m_.strings.end() ? "" : it->second;
  }

  // The OpFunction a lexical scope belongs to, or 0.
  Id scopeFunction(Id scope) const {
    for (int depth = 0; depth < kMaxDepth; ++depth) {
      const Instruction* s = debugAny(scope);
      if (!s) return 0;
      switch (s->extOpcode()) {
        case OpenCLDebugInfo100DebugFunction:
          return m_.findFunction(arg(*s, 9)) ? arg(*s, 9) : 0;
        case OpenCLDebugInfo100DebugLexicalBlock:
          scope = arg(*s, 3);
          break;
        case OpenCLDebugInfo100DebugLexicalBlockDiscriminator:
          scope = arg(*s, 2);
          break;
        default:
          return 0;
      }
    }
    return 0;
  }

  // The source name of a debug type and whether its (element) type is signed.
  void describeType(Id type, DebugVariable& v, int depth = 0) const {
    const Instruction* t = debugAny(type);
    if (!t || depth > kMaxDepth) return;
    switch (t->extOpcode()) {
      case OpenCLDebugInfo100DebugTypeBasic: {
        const uint32_t encoding = arg(*t, 2);
        v.isSigned =
            encoding == OpenCLDebugInfo100Signed || encoding == OpenCLDebugInfo100SignedChar;
        if (v.typeName.empty()) v.typeName = string(arg(*t, 0));
        return;
      }
      case OpenCLDebugInfo100DebugTypedef:
        if (v.typeName.empty()) v.typeName = string(arg(*t, 0));
        return describeType(arg(*t, 1), v, depth + 1);
      case OpenCLDebugInfo100DebugTypeQualifier:
        return describeType(arg(*t, 0), v, depth + 1);
      case OpenCLDebugInfo100DebugTypeVector: {
        DebugVariable element;
        describeType(arg(*t, 0), element, depth + 1);
        v.isSigned = element.isSigned;
        if (v.typeName.empty() && !element.typeName.empty())
          v.typeName = fmt::format("{}{}", element.typeName, arg(*t, 1));
        return;
      }
      case OpenCLDebugInfo100DebugTypeArray: {
        DebugVariable element;
        describeType(arg(*t, 0), element, depth + 1);
        v.isSigned = element.isSigned;
        auto count = m_.constants.find(arg(*t, 1));
        std::string size;
        if (count != m_.constants.end() && !count->second.bytes.empty()) {
          uint64_t n = 0;
          std::memcpy(&n, count->second.bytes.data(),
                      std::min<size_t>(8, count->second.bytes.size()));
          size = std::to_string(n);
        }
        if (v.typeName.empty() && !element.typeName.empty())
          v.typeName = element.typeName + "[" + size + "]";
        return;
      }
      case OpenCLDebugInfo100DebugTypePointer: {
        DebugVariable pointee;
        describeType(arg(*t, 0), pointee, depth + 1);
        v.isSigned = pointee.isSigned;  // of what it points at
        if (v.typeName.empty() && !pointee.typeName.empty()) v.typeName = pointee.typeName + "*";
        return;
      }
      case OpenCLDebugInfo100DebugTypeComposite:
        if (v.typeName.empty()) v.typeName = string(arg(*t, 0));
        return;
      default:
        return;
    }
  }

  void addGlobal(const Instruction& g, std::vector<DebugVariable>& out) const {
    const Id variable = arg(g, 7);
    if (!m_.variables.count(variable)) return;  // DebugInfoNone, or a constant
    DebugVariable v;
    v.name = string(arg(g, 0));
    v.function = scopeFunction(arg(g, 5));
    v.id = variable;
    v.binding = DebugVariable::Binding::Address;
    v.index = g.index;
    describeType(arg(g, 1), v);
    if (!v.name.empty()) out.push_back(std::move(v));
  }

  // Whether a DebugValue's expression says "the value itself": no operations, or only
  // llvm-spirv's address-space marker (Constu 0, Swap, Xderef). Others (a piece, an
  // offset, arithmetic) describe the variable only partly; such bindings are left out.
  bool plainExpression(Id expression) const {
    const Instruction* e = debug(expression, OpenCLDebugInfo100DebugExpression);
    if (!e) return false;
    std::vector<uint32_t> ops;
    for (size_t k = 2; k < e->operands.size(); ++k) {
      const Instruction* op = debug(e->operands[k], OpenCLDebugInfo100DebugOperation);
      if (!op) return false;
      ops.insert(ops.end(), op->operands.begin() + 2, op->operands.end());
    }
    return ops.empty() ||
           ops == std::vector<uint32_t>{OpenCLDebugInfo100Constu, 0, OpenCLDebugInfo100Swap,
                                        OpenCLDebugInfo100Xderef};
  }

  void addLocal(const Function& f, const Instruction& i, std::vector<DebugVariable>& out) const {
    const Instruction* local = debug(arg(i, 0), OpenCLDebugInfo100DebugLocalVariable);
    if (!local) return;
    const bool declare = i.extOpcode() == OpenCLDebugInfo100DebugDeclare;
    if (!declare && !plainExpression(arg(i, 2))) return;
    DebugVariable v;
    v.name = string(arg(*local, 0));
    v.function = f.id;
    v.id = arg(i, 1);
    v.binding = declare ? DebugVariable::Binding::Address : DebugVariable::Binding::Value;
    v.index = i.index;
    describeType(arg(*local, 1), v);
    v.argNumber = arg(*local, 7);  // a literal, after Name .. Flags; absent: 0
    if (!v.name.empty() && v.id) out.push_back(std::move(v));
  }

  const Module& m_;
  std::vector<Id> sets_;
  std::unordered_map<Id, const Instruction*> byId_;
};

}  // namespace

std::vector<DebugVariable> debugVariables(const Module& module) {
  return DebugInfoReader(module).run();
}

}  // namespace spvsim::spirv
