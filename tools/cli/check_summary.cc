#include "tools/cli/check_summary.h"

#include <fmt/format.h>

#include <algorithm>

#include "src/exec/diagnostics.h"

namespace spvsim::tools {
namespace {

using Row = std::vector<std::string>;

std::string formatRows(const std::vector<Row>& rows) {
  std::vector<size_t> widths;
  for (const Row& row : rows)
    for (size_t c = 0; c < row.size(); ++c) {
      if (widths.size() <= c) widths.push_back(0);
      widths[c] = std::max(widths[c], row[c].size());
    }
  std::string out;
  for (const Row& row : rows) {
    std::string line = " ";
    for (size_t c = 0; c < row.size(); ++c)
      line += fmt::format("{}{:<{}}", c ? "  " : " ", row[c], widths[c]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + '\n';
  }
  return out;
}

std::vector<size_t> dataArgs(const std::vector<CheckRun>& runs) {
  std::vector<size_t> out;
  for (size_t i = 0; i < runs.front().outputs.size(); ++i)
    if (runs.front().outputs[i]) out.push_back(i);
  return out;
}

std::string classOf(const CheckVerdicts& v, size_t run) {
  return v.runClass[run] < 0 ? "-" : className(v.runClass[run]);
}

}  // namespace

std::string formatSummaryTable(const std::vector<CheckRun>& runs, const std::vector<ArgMode>& modes,
                               const CheckVerdicts& v) {
  const std::vector<size_t> data = dataArgs(runs);
  std::vector<Row> rows;
  Row header = {"run", "sub-group size", "schedule", "errors", "warnings", "class"};
  for (size_t i : data)
    header.push_back(
        fmt::format("arg{}{}", i, modes[i] == ArgMode::Unordered ? " (unordered)" : ""));
  rows.push_back(header);
  for (size_t r = 0; r < runs.size(); ++r) {
    Row row = {
        std::to_string(r + 1),          std::to_string(runs[r].subGroupSize), runs[r].label(),
        std::to_string(runs[r].errors), std::to_string(runs[r].warnings),     classOf(v, r)};
    for (size_t i : data) row.push_back(v.cells[r][i]);
    rows.push_back(row);
  }
  return fmt::format(
      "check summary ({} result class{}; 'same' and 'differs' are against class A):\n{}",
      v.classes.size(), v.classes.size() == 1 ? "" : "es", formatRows(rows));
}

std::string formatCheckJson(const std::vector<CheckRun>& runs, const std::vector<ArgMode>& modes,
                            const CheckVerdicts& v, const CheckTotals& totals) {
  auto argList = [&](ArgMode mode) {
    std::vector<std::string> names;
    for (size_t i = 0; i < modes.size(); ++i)
      if (modes[i] == mode) names.push_back(fmt::format("\"arg{}\"", i));
    return fmt::format("[{}]", fmt::join(names, ", "));
  };
  std::vector<std::string> classes, rows;
  for (size_t c = 0; c < v.classes.size(); ++c) {
    std::vector<size_t> numbers;
    for (size_t r : v.classes[c]) numbers.push_back(r + 1);
    classes.push_back(fmt::format("{{\"name\": \"{}\", \"runs\": [{}]}}", className(c),
                                  fmt::join(numbers, ", ")));
  }
  for (size_t r = 0; r < runs.size(); ++r) {
    std::vector<std::string> cells;
    for (size_t i : dataArgs(runs))
      cells.push_back(fmt::format("\"arg{}\": {}", i, jsonQuote(v.cells[r][i])));
    // The dimensions beyond size and schedule, where a run has them.
    std::string more;
    if (runs[r].reconvergence)
      more += fmt::format("\"reconvergence\": \"random:{}\", ", *runs[r].reconvergence);
    if (runs[r].relaxed)
      more += fmt::format("\"memory_model\": \"relaxed:{}\", ", *runs[r].relaxed);
    if (runs[r].unoptimized) more += "\"build\": \"-O0\", ";
    rows.push_back(fmt::format(
        "{{\"run\": {}, \"sub_group_size\": {}, \"schedule\": \"{}\", {}\"aborted\": {}, "
        "\"class\": {}, \"errors\": {}, \"warnings\": {}, \"buffers\": {{{}}}}}",
        r + 1, runs[r].subGroupSize, runs[r].schedule(), more, runs[r].aborted ? "true" : "false",
        v.runClass[r] < 0 ? "null" : jsonQuote(className(v.runClass[r])), runs[r].errors,
        runs[r].warnings, fmt::join(cells, ", ")));
  }
  return fmt::format(
      "{{\"status\": {}, \"errors\": {}, \"warnings\": {}, \"strict\": {}, \"expect\": {}, "
      "\"ignored\": {}, \"unordered\": {},\n  \"classes\": [{}],\n  \"runs\": [\n    {}]}}",
      totals.status, totals.errors, totals.warnings, totals.strict ? "true" : "false",
      totals.expectPath.empty() ? "null" : jsonQuote(totals.expectPath), argList(ArgMode::Ignore),
      argList(ArgMode::Unordered), fmt::join(classes, ", "), fmt::join(rows, ",\n    "));
}

std::string findingJson(const Finding& f) {
  return fmt::format("{{\"kind\": {}, \"severity\": \"{}\", \"message\": {}}}", jsonQuote(f.kind),
                     f.error ? "error" : "warning", jsonQuote(f.message));
}

}  // namespace spvsim::tools
