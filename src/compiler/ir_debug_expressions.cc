// dropUntranslatableDebugValues (src/compiler/ir_rewrites.h).
#include <fmt/format.h>

#include <set>

#include "src/compiler/ir_rewrites.h"
#include "src/compiler/llvm_ir.h"

namespace spvsim::compiler {
namespace {

// The DWARF operations OpenCL.DebugInfo.100 has (DebugOperation), which llvm-spirv-15
// translates; any other makes it abort ("unsupported opcode found in DIExpression").
bool translatable(std::string_view expression) {
  static const std::set<std::string_view> kOperations = {
      "DW_OP_deref",     "DW_OP_plus",         "DW_OP_minus",  "DW_OP_plus_uconst",
      "DW_OP_bit_piece", "DW_OP_swap",         "DW_OP_xderef", "DW_OP_stack_value",
      "DW_OP_constu",    "DW_OP_LLVM_fragment"};
  for (size_t at = expression.find("DW_OP_"); at != std::string_view::npos;
       at = expression.find("DW_OP_", at + 1)) {
    size_t end = at;
    while (end < expression.size() && ir::isIdentifierChar(expression[end])) ++end;
    if (!kOperations.count(expression.substr(at, end - at))) return false;
  }
  return true;
}

// "!N" of each "!N = !DIExpression(...)" llvm-spirv-15 cannot translate.
std::set<std::string> untranslatableNodes(const std::vector<std::string>& lines) {
  std::set<std::string> out;
  for (const std::string& line : lines) {
    const size_t eq = line.find(" = !DIExpression(");
    if (line.rfind("!", 0) == 0 && eq != std::string::npos && !translatable(line.substr(eq)))
      out.insert(line.substr(0, eq));
  }
  return out;
}

// The call's three metadata arguments: value, variable, expression.
std::optional<std::string> dropped(const std::string& line, const std::set<std::string>& nodes) {
  const size_t call = line.find("call void @llvm.dbg.value(");
  if (call == std::string::npos) return std::nullopt;
  const size_t open = line.find('(', call);
  const auto args = ir::parenthesized(line, open);
  if (!args) return std::nullopt;
  const std::vector<std::string_view> parts = ir::splitTopLevel(*args);
  if (parts.size() != 3 || parts[0].substr(0, 9) != "metadata " ||
      parts[2].substr(0, 9) != "metadata ")
    return std::nullopt;
  const std::string_view expression = parts[2].substr(9);
  if (expression.rfind("!DIExpression(", 0) == 0 ? translatable(expression)
                                                 : !nodes.count(std::string(expression)))
    return std::nullopt;
  // The value's type stays (the variable's location keeps its size): "metadata T undef".
  std::string_view value = parts[0].substr(9);
  const size_t typeEnd = ir::typeLength(value);
  if (typeEnd == 0 || typeEnd >= value.size()) return std::nullopt;
  return fmt::format(
      "{}call void @llvm.dbg.value(metadata {} undef, {}, metadata !DIExpression()){}",
      line.substr(0, call), value.substr(0, typeEnd), parts[1],
      line.substr(open + args->size() + 2));
}

}  // namespace

int dropUntranslatableDebugValues(std::vector<std::string>& lines) {
  const std::set<std::string> nodes = untranslatableNodes(lines);
  int count = 0;
  for (std::string& line : lines)
    if (std::optional<std::string> d = dropped(line, nodes)) {
      line = std::move(*d);
      ++count;
    }
  return count;
}

}  // namespace spvsim::compiler
