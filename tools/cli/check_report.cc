#include "tools/cli/check_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "spirv/text.h"
#include "tools/cli/output_files.h"

namespace spvsim::tools {
namespace {

std::string member(const JsonValue& o, std::string_view key) {
  const JsonValue* v = o.find(key);
  return v ? v->text : "";
}

// The key under which one diagnostic of different runs folds into one line: where it
// happened in the module and what it says, not which lanes showed it.
std::string foldKey(const JsonValue& d) {
  return member(d, "kind") + '\n' + member(d, "instruction") + '\n' + member(d, "message");
}

// What a diagnostic of the -O0 build (CheckRun::unoptimized) is matched against in the
// optimised build's: its kind and source line (instructions differ between the builds;
// without debug information the kind alone).
std::string buildKey(const JsonValue& d) { return member(d, "kind") + '\n' + member(d, "line"); }

// One line per distinct diagnostic with the runs that showed it. A diagnostic of the -O0
// build whose kind and line the optimised build also shows is the same fault, already
// reported; the others are reported as only that build's.
void reportDiagnostics(const std::vector<CheckRecord>& records, std::ostream& err,
                       CheckReport& report) {
  std::set<std::string> optimized;
  for (const CheckRecord& r : records)
    if (!r.run.unoptimized)
      for (const JsonValue& d : r.diagnostics) optimized.insert(buildKey(d));
  std::map<std::string, std::vector<std::string>> seenIn;
  std::vector<std::pair<const JsonValue*, const std::string*>> order;
  for (const CheckRecord& r : records)
    for (size_t k = 0; k < r.diagnostics.size(); ++k) {
      if (r.run.unoptimized && optimized.count(buildKey(r.diagnostics[k]))) continue;
      auto& where = seenIn[foldKey(r.diagnostics[k])];
      if (where.empty()) order.emplace_back(&r.diagnostics[k], &r.diagnosticLines[k]);
      where.push_back(r.run.name());
    }
  for (const auto& [json, line] : order) {
    const auto& where = seenIn[foldKey(*json)];
    // Every run that showed it is then of the -O0 build.
    const bool onlyUnoptimized = optimized.count(buildKey(*json)) == 0;
    err << *line
        << fmt::format(" (in {} of {} runs, first: {}{})\n", where.size(), records.size(),
                       where.front(),
                       onlyUnoptimized ? "; only the -O0 build shows it: the optimised "
                                         "build's code no longer has what it reports"
                                       : "");
    ++(member(*json, "severity") == "error" ? report.totals.errors : report.totals.warnings);
    report.jsonDiagnostics.push_back(writeJson(*json));
  }
}

void reportFindings(const CheckVerdicts& v, std::ostream& err, CheckReport& report) {
  for (const Finding& f : v.findings) {
    err << fmt::format("{}: {}: {}\n", f.error ? "error" : "warning", f.kind, f.message);
    ++(f.error ? report.totals.errors : report.totals.warnings);
    report.jsonDiagnostics.push_back(findingJson(f));
  }
}

// "sub-group sizes x schedules", "sub-group sizes x (schedules + reconvergences + -O0
// build)": what the runs of a launch vary.
std::string dimensions(const std::vector<CheckRun>& runs) {
  std::string per = "schedules";
  if (std::any_of(runs.begin(), runs.end(), [](const CheckRun& r) { return r.reconvergence; }))
    per += " + reconvergences";
  if (std::any_of(runs.begin(), runs.end(), [](const CheckRun& r) { return r.relaxed; }))
    per += " + relaxed memory";
  if (std::any_of(runs.begin(), runs.end(), [](const CheckRun& r) { return r.unoptimized; }))
    per += " + -O0 build";
  return per == "schedules" ? "sub-group sizes x schedules" : "sub-group sizes x (" + per + ")";
}

// XML 1.0 text (spirv::markupText).
std::string xmlText(std::string_view s) { return spirv::markupText(s); }

// One <testcase>; `failed` says whether it holds a <failure>.
std::string junitCase(const CheckRecord& r, size_t run, const CheckVerdicts& v, bool& failed) {
  std::vector<std::string> lines = r.diagnosticLines;
  std::string failure;
  for (const Finding& f : v.findings)
    if (std::find(f.runs.begin(), f.runs.end(), run) != f.runs.end()) {
      lines.push_back(fmt::format("{}: {}: {}", f.error ? "error" : "warning", f.kind, f.message));
      if (f.error && failure.empty()) failure = f.kind;
    }
  const std::string verdict = r.verdict();
  if (verdict == "aborted") failure = "aborted";
  if (verdict == "error" && failure.empty())
    failure = fmt::format("{} error{}", r.run.errors, r.run.errors == 1 ? "" : "s");
  std::string body;
  failed = !failure.empty();
  if (failed)
    body += fmt::format("<failure message=\"{}\" type=\"{}\"/>", xmlText(failure),
                        verdict == "aborted" ? "aborted" : "error");
  if (!lines.empty())
    body += "<system-out>" + xmlText(fmt::format("{}\n", fmt::join(lines, "\n"))) + "</system-out>";
  return fmt::format("    <testcase classname=\"{}\" name=\"{} ({})\">{}</testcase>\n",
                     xmlText(r.launch), r.id, xmlText(r.run.name()), body);
}

std::string junitSuite(const std::vector<CheckRecord>& records, const CheckVerdicts& v) {
  std::string cases;
  size_t failures = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    bool failed = false;
    cases += junitCase(records[i], i, v, failed);
    failures += failed;
  }
  return fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n{}  </testsuite>\n",
      xmlText(records.front().launch), records.size(), failures, cases);
}

}  // namespace

std::string verdictLine(const CheckTotals& t) {
  auto count = [](uint64_t n, const char* what) {
    return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
  };
  if (t.errors == 0 && t.warnings == 0) return "no problems found";
  if (t.errors == 0)
    return fmt::format("no errors; {}{}", count(t.warnings, "warning"),
                       t.strict ? " (--strict: exit status 2)" : "");
  return fmt::format("problems found: {}, {}", count(t.errors, "error"),
                     count(t.warnings, "warning"));
}

CheckReport reportRecords(const std::vector<CheckRecord>& records, std::ostream& out,
                          std::ostream& err) {
  const CheckSettings& settings = records.front().settings;
  CheckReport report;
  report.totals.strict = settings.strict;
  report.totals.expectPath = settings.expect == "captured" ? "" : settings.expect;
  std::vector<CheckRun> runs;
  for (const CheckRecord& r : records) runs.push_back(r.run);
  reportDiagnostics(records, err, report);
  const CheckVerdicts verdicts = judgeRuns(runs, settings.modes);
  reportFindings(verdicts, err, report);
  if (records.front().position == 0) out << records.front().output;
  checkStandardOutput(out);
  const bool aborted =
      std::any_of(runs.begin(), runs.end(), [](const CheckRun& r) { return r.aborted; });
  CheckTotals& t = report.totals;
  t.status = t.errors || aborted || (t.strict && t.warnings) ? 2 : 0;
  report.checkJson = formatCheckJson(runs, settings.modes, verdicts, t);
  report.junitSuite = junitSuite(records, verdicts);
  err << formatSummaryTable(runs, settings.modes, verdicts);
  const uint64_t all = records.front().configurations;
  err << fmt::format("check: {}{} runs ({}): {}\n",
                     records.size() < all ? fmt::format("{} of ", records.size()) : "", all,
                     all == 1 ? runs.front().name() : dimensions(runs), verdictLine(t));
  return report;
}

std::string junitDocument(const std::vector<std::string>& suites) {
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"spvsim "
      "check\">\n{}</testsuites>\n",
      fmt::join(suites, ""));
}

}  // namespace spvsim::tools
