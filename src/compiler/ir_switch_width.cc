// widenSwitches (src/compiler/ir_rewrites.h).
#include <fmt/format.h>

#include <cctype>
#include <charconv>

#include "src/compiler/ir_rewrites.h"
#include "src/compiler/llvm_ir.h"

namespace spvsim::compiler {
namespace {

// The width of "iN", or 0.
unsigned intWidth(std::string_view type) {
  unsigned w = 0;
  if (type.size() < 2 || type[0] != 'i') return 0;
  const auto r = std::from_chars(type.data() + 1, type.data() + type.size(), w);
  return r.ptr == type.data() + type.size() ? w : 0;
}

bool isStandard(unsigned w) { return w == 1 || w == 8 || w == 16 || w == 32 || w == 64; }

// A case literal of width `w` (printed signed by LLVM) as the unsigned value of its bits.
std::optional<uint64_t> caseValue(std::string_view literal, unsigned w) {
  int64_t v = 0;
  const auto r = std::from_chars(literal.data(), literal.data() + literal.size(), v);
  if (r.ptr != literal.data() + literal.size()) return std::nullopt;
  const uint64_t mask = w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
  return static_cast<uint64_t>(v) & mask;
}

// Where `name` is defined as "trunc iW %x to iN" in lines [begin, end): line and operand.
struct Trunc {
  size_t line;
  std::string wideType, operand;
};
std::optional<Trunc> findTrunc(const std::vector<std::string>& lines, size_t begin, size_t end,
                               std::string_view name, std::string_view narrow) {
  for (size_t l = begin; l < end; ++l) {
    const auto a = ir::parseAssignment(lines[l]);
    if (!a || a->name != name || a->rest.substr(0, 6) != "trunc ") continue;
    std::string_view ops =
        a->rest.substr(6, a->rest.size() - 6 - ir::metadataSuffix(lines[l]).size());
    const size_t to = ops.rfind(" to ");
    if (to == std::string_view::npos || ops.substr(to + 4) != narrow) return std::nullopt;
    ops = ops.substr(0, to);
    const size_t space = ops.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    return Trunc{l, std::string(ops.substr(0, space)), std::string(ops.substr(space + 1))};
  }
  return std::nullopt;
}

// Widens the switch at `s` (whose cases follow up to the line "  ]") in function f.
bool widen(std::vector<std::string>& lines, const ir::Function& f, size_t s, int serial) {
  const std::string& line = lines[s];
  const size_t kw = line.find("switch ");
  const size_t typeEnd = line.find(' ', kw + 7);
  const size_t condEnd = line.find(',', typeEnd);
  if (typeEnd == std::string::npos || condEnd == std::string::npos) return false;
  const std::string narrow = line.substr(kw + 7, typeEnd - kw - 7);
  const unsigned w = intWidth(narrow);
  if (w == 0 || isStandard(w) || w > 64) return false;
  const std::string cond = line.substr(typeEnd + 1, condEnd - typeEnd - 1);
  std::string wide = w < 32 ? "i32" : "i64", value;
  const auto trunc = cond[0] == '%' ? findTrunc(lines, f.begin, f.end, cond, narrow) : std::nullopt;
  std::vector<std::string> insert;
  if (trunc && intWidth(trunc->wideType) > w && ir::countUses(lines, f.begin, f.end, cond) == 1) {
    wide = trunc->wideType;
    value = cond;
    const uint64_t mask = (uint64_t(1) << w) - 1;
    lines[trunc->line] =
        fmt::format("{}{} = and {} {}, {}{}", ir::parseAssignment(lines[trunc->line])->indent, cond,
                    wide, trunc->operand, mask, ir::metadataSuffix(lines[trunc->line]));
  } else {
    value = fmt::format("%spvsim.switch.{}", serial);
    insert.push_back(
        fmt::format("{}{} = zext {} {} to {}", line.substr(0, kw), value, narrow, cond, wide));
  }
  std::vector<std::string> cases;
  size_t l = s + 1;
  for (; l < f.end && lines[l].find(']') == std::string::npos; ++l) {
    std::string_view c = lines[l];
    const size_t t = c.find(narrow + " ");
    const size_t comma = c.find(',', t);
    if (t == std::string_view::npos || comma == std::string_view::npos) return false;
    const auto v = caseValue(c.substr(t + narrow.size() + 1, comma - t - narrow.size() - 1), w);
    if (!v) return false;
    cases.push_back(fmt::format("{}{} {}{}", c.substr(0, t), wide, *v, c.substr(comma)));
  }
  for (size_t k = 0; k < cases.size(); ++k) lines[s + 1 + k] = cases[k];
  lines[s] = fmt::format("{}switch {} {}{}", line.substr(0, kw), wide, value, line.substr(condEnd));
  lines.insert(lines.begin() + s, insert.begin(), insert.end());
  return true;
}

}  // namespace

int widenSwitches(std::vector<std::string>& lines) {
  int count = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (const ir::Function& f : ir::functions(lines)) {
      for (size_t l = f.begin; l < f.end; ++l) {
        const size_t kw = lines[l].find("switch i");
        if (kw == std::string::npos || lines[l].find_first_not_of(' ') != kw) continue;
        if (widen(lines, f, l, count)) {
          ++count;
          changed = true;  // line numbers moved: start over
          break;
        }
      }
      if (changed) break;
    }
  }
  return count;
}

}  // namespace spvsim::compiler
