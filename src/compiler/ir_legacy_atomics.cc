// lowerLegacyAtomics (src/compiler/ir_rewrites.h).
#include <fmt/format.h>

#include <cctype>
#include <map>
#include <set>

#include "src/compiler/ir_rewrites.h"
#include "src/compiler/llvm_ir.h"

namespace spvsim::compiler {
namespace {

// What one legacy built-in does: an atomicrmw operation with an operand (`operand` empty:
// the call's value argument), or a compare-exchange.
struct LegacyOp {
  std::string rmw;              // "add", "min", ...; "cmpxchg" for atomic_cmpxchg
  std::string constantOperand;  // "1" for inc/dec
};

// A parsed call target "_Z10atomic_incPU3AS1Vj": the operation and the pointer's type.
struct Target {
  LegacyOp op;
  std::string element;  // "i32", "i64", "float"
  std::string pointer;  // "i32 addrspace(1)*"
};

std::optional<LegacyOp> legacyOp(std::string_view name, bool isSigned) {
  for (std::string_view prefix : {"atomic_", "atom_"}) {
    if (name.substr(0, prefix.size()) != prefix) continue;
    const std::string_view op = name.substr(prefix.size());
    if (op == "add" || op == "sub" || op == "xchg" || op == "and" || op == "or" || op == "xor")
      return LegacyOp{std::string(op), ""};
    if (op == "inc") return LegacyOp{"add", "1"};
    if (op == "dec") return LegacyOp{"sub", "1"};
    if (op == "min" || op == "max")
      return LegacyOp{isSigned ? std::string(op) : "u" + std::string(op), ""};
    if (op == "cmpxchg") return LegacyOp{"cmpxchg", ""};
  }
  return std::nullopt;
}

// Itanium-mangled "_Z<n><name>P[U3AS<d>][V]<t>...", as clang-15 names the overloads.
std::optional<Target> parseTarget(std::string_view mangled) {
  if (mangled.substr(0, 2) != "_Z") return std::nullopt;
  size_t i = 2, length = 0;
  while (i < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[i])))
    length = length * 10 + (mangled[i++] - '0');
  if (length == 0 || i + length > mangled.size()) return std::nullopt;
  const std::string_view name = mangled.substr(i, length);
  std::string_view rest = mangled.substr(i + length);
  if (rest.substr(0, 1) != "P") return std::nullopt;
  rest.remove_prefix(1);
  char space = '0';
  if (rest.substr(0, 4) == "U3AS" && rest.size() > 4) {
    space = rest[4];
    rest.remove_prefix(5);
  }
  if (rest.substr(0, 1) == "V") rest.remove_prefix(1);
  if (rest.empty()) return std::nullopt;
  static const std::map<char, std::pair<std::string, bool>> kTypes = {{'i', {"i32", true}},
                                                                      {'j', {"i32", false}},
                                                                      {'l', {"i64", true}},
                                                                      {'m', {"i64", false}},
                                                                      {'f', {"float", false}}};
  const auto type = kTypes.find(rest[0]);
  if (type == kTypes.end()) return std::nullopt;
  const auto op = legacyOp(name, type->second.second);
  if (!op || (type->second.first == "float" && op->rmw != "xchg")) return std::nullopt;
  Target t{*op, type->second.first, ""};
  t.pointer = space == '0' ? t.element + "*" : fmt::format("{} addrspace({})*", t.element, space);
  return t;
}

// The value of one call argument "TYPE [attributes] VALUE" whose type is `type`.
std::optional<std::string_view> argumentValue(std::string_view arg, std::string_view type) {
  if (arg.substr(0, type.size()) != type || arg.substr(type.size(), 1) != " ") return std::nullopt;
  arg.remove_prefix(type.size() + 1);
  static const std::set<std::string_view> kFlags = {"noundef",  "nonnull",   "noalias", "nocapture",
                                                    "readonly", "writeonly", "signext", "zeroext",
                                                    "inreg",    "returned",  "immarg"};
  while (true) {
    const size_t space = arg.find(' ');
    if (space == std::string_view::npos) return arg;
    const std::string_view word = arg.substr(0, space);
    if (kFlags.count(word) || word.rfind("dereferenceable", 0) == 0) {
      arg.remove_prefix(space + 1);
    } else if (word == "align") {
      const size_t next = arg.find(' ', space + 1);
      if (next == std::string_view::npos) return std::nullopt;
      arg.remove_prefix(next + 1);
    } else {
      return arg;
    }
  }
}

// The instructions replacing one call line, or none when it is not a legacy atomic.
std::vector<std::string> lowerCall(const std::string& line, int serial,
                                   std::set<std::string>& lowered) {
  const auto a = ir::parseAssignment(line);
  const size_t at = line.find(" @_Z");
  if (!a || at == std::string::npos || line.find("call ") == std::string::npos) return {};
  const size_t open = line.find('(', at);
  if (open == std::string::npos) return {};
  const std::string callee = line.substr(at + 2, open - at - 2);
  const auto t = parseTarget(callee);
  const auto args = ir::parenthesized(line, open);
  if (!t || !args) return {};
  const std::vector<std::string_view> parts = ir::splitTopLevel(*args);
  const size_t want = t->op.rmw == "cmpxchg" ? 3 : t->op.constantOperand.empty() ? 2 : 1;
  if (parts.size() != want) return {};
  std::vector<std::string_view> values;
  for (size_t k = 0; k < parts.size(); ++k)
    if (auto v = argumentValue(parts[k], k == 0 ? std::string_view(t->pointer) : t->element))
      values.push_back(*v);
  if (values.size() != want) return {};
  const std::string_view md = ir::metadataSuffix(line);
  lowered.insert(callee);
  if (t->op.rmw == "cmpxchg") {
    const std::string pair = fmt::format("%spvsim.cmpxchg.{}", serial);
    return {fmt::format("{}{} = cmpxchg {} {}, {} {}, {} {} monotonic monotonic{}", a->indent, pair,
                        t->pointer, values[0], t->element, values[1], t->element, values[2], md),
            fmt::format("{}{} = extractvalue {{ {}, i1 }} {}, 0{}", a->indent, a->name, t->element,
                        pair, md)};
  }
  const std::string_view operand =
      t->op.constantOperand.empty() ? values[1] : std::string_view(t->op.constantOperand);
  return {fmt::format("{}{} = atomicrmw {} {} {}, {} {} monotonic{}", a->indent, a->name, t->op.rmw,
                      t->pointer, values[0], t->element, operand, md)};
}

}  // namespace

int lowerLegacyAtomics(std::vector<std::string>& lines) {
  std::set<std::string> lowered;
  const int count = ir::expandLines(
      lines, [&](const std::string& line, int serial) { return lowerCall(line, serial, lowered); });
  // The declarations of built-ins no call uses any more would become unresolved imports.
  std::set<std::string> unused;
  for (const std::string& name : lowered)
    if (ir::countUses(lines, 0, lines.size(), "@" + name) == 1) unused.insert("@" + name + "(");
  std::erase_if(lines, [&](const std::string& line) {
    if (line.rfind("declare ", 0) != 0) return false;
    for (const std::string& decl : unused)
      if (line.find(decl) != std::string::npos) return true;
    return false;
  });
  return count;
}

}  // namespace spvsim::compiler
