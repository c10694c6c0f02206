// removeFreeze (src/compiler/ir_rewrites.h).
#include <fmt/format.h>

#include "src/compiler/ir_rewrites.h"
#include "src/compiler/llvm_ir.h"

namespace spvsim::compiler {
namespace {

bool isIntegerType(std::string_view t) {
  // "i32", "<4 x i1>"
  const size_t x = t.find(" x ");
  const std::string_view element = x == std::string_view::npos ? t : t.substr(x + 3);
  return !element.empty() && element[0] == 'i' && element.find('*') == std::string_view::npos;
}

bool isFloatType(std::string_view t) {
  for (std::string_view f : {"half", "float", "double"})
    if (t == f ||
        (t.find(" x ") != std::string_view::npos && t.substr(t.find(" x ") + 3, f.size()) == f))
      return true;
  return false;
}

// The identity instructions replacing `name = freeze type value`, or none for a type
// this rewrite does not handle (aggregates): then the translator reports the freeze.
std::vector<std::string> identity(std::string_view indent, std::string_view name,
                                  std::string_view type, std::string_view value,
                                  std::string_view metadata, int serial) {
  if (isIntegerType(type))
    return {fmt::format("{}{} = or {} {}, zeroinitializer{}", indent, name, type, value, metadata)};
  if (isFloatType(type)) {
    const std::string temp = fmt::format("%spvsim.unfrozen.{}", serial);
    return {fmt::format("{}{} = fneg {} {}{}", indent, temp, type, value, metadata),
            fmt::format("{}{} = fneg {} {}{}", indent, name, type, temp, metadata)};
  }
  if (!type.empty() && type.back() == '*' && type.find(" x ") == std::string_view::npos) {
    // "T addrspace(N)*" or "T*": the pointee is what precedes the address space or star.
    std::string_view pointee = type.substr(0, type.size() - 1);
    if (const size_t as = pointee.rfind(" addrspace("); as != std::string_view::npos)
      pointee = pointee.substr(0, as);
    return {fmt::format("{}{} = getelementptr {}, {} {}, i64 0{}", indent, name, pointee, type,
                        value, metadata)};
  }
  return {};
}

}  // namespace

int removeFreeze(std::vector<std::string>& lines) {
  return ir::expandLines(lines, [](const std::string& line, int serial) {
    const auto a = ir::parseAssignment(line);
    if (!a || a->rest.substr(0, 7) != "freeze ") return std::vector<std::string>{};
    const std::string_view metadata = ir::metadataSuffix(line);
    const std::string_view operands = a->rest.substr(7, a->rest.size() - 7 - metadata.size());
    const size_t typeEnd = ir::typeLength(operands);
    if (typeEnd == 0 || typeEnd >= operands.size() || operands[typeEnd] != ' ')
      return std::vector<std::string>{};
    return identity(a->indent, a->name, operands.substr(0, typeEnd), operands.substr(typeEnd + 1),
                    metadata, serial);
  });
}

}  // namespace spvsim::compiler
