// `spvsim check`'s report of one launch, made from its result records
// (tools/cli/check_record.h) whether they were just run or merged from shards' results
// files: the diagnostics (each once, with the runs that showed it), the findings, the
// summary table, the verdict line and the exit status; and its JUnit XML test suite.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "tools/cli/check_record.h"
#include "tools/cli/check_summary.h"
#include "tools/cli/check_verdict.h"

namespace spvsim::tools {

struct CheckReport {
  CheckTotals totals;                        // status: the launch's exit status
  std::vector<std::string> jsonDiagnostics;  // the --json report's "diagnostics"
  std::string checkJson;                     // the --json report's "check" object
  std::string junitSuite;                    // one <testsuite> element
};

// `records`: one launch's, ordered by position. Writes the stdout of the record at position 0
// (when among them) to `out` and the report to `err`.
CheckReport reportRecords(const std::vector<CheckRecord>& records, std::ostream& out,
                          std::ostream& err);

// The whole JUnit XML document around the suites.
std::string junitDocument(const std::vector<std::string>& suites);

// "no problems found", "no errors; 1 warning", "problems found: 2 errors, 1 warning".
std::string verdictLine(const CheckTotals& t);

}  // namespace spvsim::tools
