#include "src/compiler/llvm_ir.h"

#include <cctype>
#include <iterator>

namespace spvsim::compiler::ir {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Length of a bracketed group starting at s[0] (one of "<[{("), or 0 if unbalanced.
size_t groupLength(std::string_view s) {
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<' || c == '[' || c == '{' || c == '(') ++depth;
    if (c == '>' || c == ']' || c == '}' || c == ')') {
      if (--depth == 0) return i + 1;
    }
  }
  return 0;
}

size_t identifierLength(std::string_view s, size_t from) {
  size_t i = from;
  while (i < s.size() && isIdentifierChar(s[i])) ++i;
  return i - from;
}

// A base type: iN, a floating-point or other keyword type, a named type, or a group.
size_t baseTypeLength(std::string_view s) {
  if (s.empty()) return 0;
  if (s[0] == '<' || s[0] == '[' || s[0] == '{') return groupLength(s);
  if (s[0] == '%') return 1 + identifierLength(s, 1);
  if (s[0] == 'i') {
    size_t n = 1;
    while (n < s.size() && std::isdigit(static_cast<unsigned char>(s[n]))) ++n;
    return n > 1 ? n : 0;
  }
  for (std::string_view k : {"half", "bfloat", "float", "double", "void", "ptr", "label"})
    if (s.substr(0, k.size()) == k && (s.size() == k.size() || !isIdentifierChar(s[k.size()])))
      return k.size();
  return 0;
}

}  // namespace

std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

std::string joinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + '\n';
  return out;
}

bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '$' || c == '.' ||
         c == '_';
}

std::optional<Assignment> parseAssignment(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  if (i >= line.size() || line[i] != '%') return std::nullopt;
  const size_t nameLength = 1 + identifierLength(line, i + 1);
  if (nameLength == 1) return std::nullopt;
  const std::string_view after = line.substr(i + nameLength);
  if (after.substr(0, 3) != " = ") return std::nullopt;
  return Assignment{line.substr(0, i), line.substr(i, nameLength), after.substr(3)};
}

size_t typeLength(std::string_view s) {
  size_t n = baseTypeLength(s);
  if (n == 0) return 0;
  while (true) {
    const std::string_view rest = s.substr(n);
    if (rest.substr(0, 1) == "*") {
      n += 1;
    } else if (rest.substr(0, 11) == " addrspace(") {
      const size_t close = rest.find(')');
      if (close == std::string_view::npos || rest.substr(close + 1, 1) != "*") return n;
      n += close + 2;
    } else if (rest.substr(0, 2) == " (" || rest.substr(0, 1) == "(") {
      // A function type "i32 (i32)*" only counts when a pointer to it follows.
      const size_t open = rest.find('(');
      const size_t g = groupLength(rest.substr(open));
      if (g == 0 || rest.substr(open + g, 1) != "*") return n;
      n += open + g;
    } else {
      return n;
    }
  }
}

std::vector<std::string_view> splitTopLevel(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<' || c == '[' || c == '{' || c == '(') ++depth;
    if (c == '>' || c == ']' || c == '}' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (!trim(s.substr(start)).empty() || !out.empty()) out.push_back(trim(s.substr(start)));
  return out;
}

std::optional<std::string_view> parenthesized(std::string_view s, size_t open) {
  if (open >= s.size() || s[open] != '(') return std::nullopt;
  const size_t g = groupLength(s.substr(open));
  if (g == 0) return std::nullopt;
  return s.substr(open + 1, g - 2);
}

std::string_view metadataSuffix(std::string_view line) {
  // Attachments come last, each ", !kind !N"; a "!" inside the operands is never
  // preceded by ", " followed by a name and a space and another "!".
  size_t at = line.size();
  while (true) {
    const size_t comma = line.rfind(", !", at == 0 ? 0 : at - 1);
    if (comma == std::string_view::npos || comma >= at) break;
    const std::string_view piece = line.substr(comma + 3, at - comma - 3);
    const size_t space = piece.find(' ');
    if (space == std::string_view::npos || piece.substr(space + 1, 1) != "!") break;
    at = comma;
  }
  return line.substr(at);
}

int countUses(const std::vector<std::string>& lines, size_t begin, size_t end,
              std::string_view name) {
  int uses = 0;
  for (size_t l = begin; l < end && l < lines.size(); ++l) {
    const std::string& line = lines[l];
    for (size_t at = line.find(name); at != std::string::npos; at = line.find(name, at + 1)) {
      const size_t after = at + name.size();
      if (after < line.size() && isIdentifierChar(line[after])) continue;
      if (at > 0 && isIdentifierChar(line[at - 1])) continue;
      ++uses;
    }
    if (auto a = parseAssignment(line); a && a->name == name) --uses;
  }
  return uses;
}

int expandLines(std::vector<std::string>& lines,
                const std::function<std::vector<std::string>(const std::string&, int)>& expand) {
  int count = 0;
  std::vector<std::string> out;
  out.reserve(lines.size());
  for (std::string& line : lines) {
    std::vector<std::string> replacement = expand(line, count);
    if (replacement.empty()) {
      out.push_back(std::move(line));
      continue;
    }
    std::move(replacement.begin(), replacement.end(), std::back_inserter(out));
    ++count;
  }
  lines = std::move(out);
  return count;
}

std::vector<Function> functions(const std::vector<std::string>& lines) {
  std::vector<Function> out;
  for (size_t l = 0; l < lines.size(); ++l) {
    if (lines[l].rfind("define ", 0) != 0) continue;
    Function f{l, l};
    while (f.end < lines.size() && lines[f.end] != "}") ++f.end;
    if (f.end == lines.size()) break;
    out.push_back(f);
    l = f.end;
  }
  return out;
}

}  // namespace spvsim::compiler::ir
