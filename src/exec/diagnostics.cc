#include "src/exec/diagnostics.h"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "spirv/text.h"

namespace spvsim {

namespace {

std::string joinLanes(const std::vector<uint32_t>& lanes) {
  std::string s;
  for (size_t i = 0; i < lanes.size(); ++i) {
    // Runs of consecutive lanes print as a range: 0-15.
    size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    if (!s.empty()) s += ",";
    s += j > i + 1    ? fmt::format("{}-{}", lanes[i], lanes[j])
         : j == i + 1 ? fmt::format("{},{}", lanes[i], lanes[j])
                      : fmt::format("{}", lanes[i]);
    i = j;
  }
  return s;
}

}  // namespace

// Module text (names, strings) reaches messages escaped at its source; escaping again
// here keeps every diagnostic one line whatever a message or kernel name holds.
std::string formatText(const Diagnostic& d) {
  using spirv::escapeText;
  std::string s = fmt::format("{}: {}: {}", d.severity == Severity::Error ? "error" : "warning",
                              kindName(d.kind), escapeText(d.message));
  std::string where;
  auto add = [&](const std::string& part) { where += (where.empty() ? "" : ", ") + part; };
  if (!d.kernel.empty()) add("kernel " + escapeText(d.kernel));
  if (d.workGroup)
    add(fmt::format("work-group ({},{},{})", (*d.workGroup)[0], (*d.workGroup)[1],
                    (*d.workGroup)[2]));
  if (d.subGroup) add(fmt::format("sub-group {}", *d.subGroup));
  if (!d.lanes.empty())
    add(fmt::format("lane{} {}", d.lanes.size() > 1 ? "s" : "", joinLanes(d.lanes)));
  if (!d.line.empty()) add("at " + escapeText(d.line));
  if (!d.instruction.empty()) add("in `" + escapeText(d.instruction) + "`");
  if (!where.empty()) s += " [" + where + "]";
  if (d.repeats) s += fmt::format(" (and {} more like this)", d.repeats);
  return s;
}

std::string jsonQuote(const std::string& s) { return spirv::jsonStringLiteral(s); }

std::string formatJson(const Diagnostic& d) {
  std::string s = "{";
  s += "\"kind\": " + jsonQuote(std::string(kindName(d.kind)));
  s += ", \"severity\": " + jsonQuote(d.severity == Severity::Error ? "error" : "warning");
  s += ", \"kernel\": " + jsonQuote(d.kernel);
  if (d.workGroup)
    s += fmt::format(", \"work_group\": [{}, {}, {}]", (*d.workGroup)[0], (*d.workGroup)[1],
                     (*d.workGroup)[2]);
  if (d.subGroup) s += fmt::format(", \"sub_group\": {}", *d.subGroup);
  s += ", \"lanes\": [";
  for (size_t i = 0; i < d.lanes.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", d.lanes[i]);
  s += "]";
  s += ", \"instruction\": " + jsonQuote(d.instruction);
  s += ", \"line\": " + jsonQuote(d.line);
  s += ", \"message\": " + jsonQuote(d.message);
  s += fmt::format(", \"repeats\": {}", d.repeats);
  return s + "}";
}

std::vector<Diagnostic> foldDiagnostics(std::vector<Diagnostic> all) {
  std::stable_sort(all.begin(), all.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.order < b.order; });
  std::vector<Diagnostic> out;
  // (kind, severity, instruction): a warning never hides an error of the same kind.
  std::map<std::tuple<DiagnosticKind, Severity, std::string>, size_t> first;
  for (auto& d : all) {
    auto key = std::make_tuple(d.kind, d.severity, d.instruction);
    auto it = first.find(key);
    if (it != first.end() && !d.instruction.empty()) {
      out[it->second].repeats += 1 + d.repeats;
      continue;
    }
    first[key] = out.size();
    out.push_back(std::move(d));
  }
  return out;
}

bool hasErrors(const std::vector<Diagnostic>& ds) {
  return std::any_of(ds.begin(), ds.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

}  // namespace spvsim
