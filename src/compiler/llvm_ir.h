// Just enough of textual LLVM IR (as clang-15 -S prints it, typed pointers) for the
// compile driver's rewrites (src/compiler/ir_*.cc): lines, instruction results, types and
// call arguments. Not a parser of the whole language: a rewrite that meets something it
// does not understand leaves the line alone, and the translator then reports it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spvsim::compiler::ir {

std::vector<std::string> splitLines(std::string_view text);
std::string joinLines(const std::vector<std::string>& lines);

// Characters of an unquoted LLVM identifier after its sigil (`%x.1`, `@_Z3foo`).
bool isIdentifierChar(char c);

// One instruction line "  %name = REST" (REST starts at the opcode): name and REST.
struct Assignment {
  std::string_view indent;
  std::string_view name;  // "%5", "%x.y"
  std::string_view rest;
};
std::optional<Assignment> parseAssignment(std::string_view line);

// The length of the type at the start of `s` ("i32", "<4 x i1>", "float addrspace(1)*",
// "{ i32, i1 }", "%struct.S*", ...), or 0 when `s` does not start with a type.
size_t typeLength(std::string_view s);

// Splits "a, b(c, d), <e, f>" at the commas outside brackets, trimming each piece.
std::vector<std::string_view> splitTopLevel(std::string_view s);

// The text between the parenthesis at `open` and its match, or nullopt.
std::optional<std::string_view> parenthesized(std::string_view s, size_t open);

// The trailing metadata attachments of an instruction line (", !dbg !12"), or "".
std::string_view metadataSuffix(std::string_view line);

// Counts the uses of `name` (a local value) in lines [begin, end), i.e. occurrences not
// followed by an identifier character, minus its definition.
int countUses(const std::vector<std::string>& lines, size_t begin, size_t end,
              std::string_view name);

// Replaces every line for which `expand(line, serial)` returns instructions by them
// (serial: how many lines were replaced before, for unique temporary names); returns
// how many lines were replaced.
int expandLines(std::vector<std::string>& lines,
                const std::function<std::vector<std::string>(const std::string&, int)>& expand);

// The line ranges [first, last] of every function definition ("define ... {" to "}").
struct Function {
  size_t begin = 0;  // the define line
  size_t end = 0;    // the closing brace line
};
std::vector<Function> functions(const std::vector<std::string>& lines);

}  // namespace spvsim::compiler::ir
