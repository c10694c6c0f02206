// What `spvsim check` prints last: the summary table (configuration x buffer x verdict, and
// each run's diagnostic counts) on stderr, and the same as the --json report's "check"
// object (README "spvsim check").
#pragma once

#include <string>
#include <vector>

#include "tools/cli/check_verdict.h"

namespace spvsim::tools {

struct CheckTotals {
  int status = 0;                     // the exit status
  uint64_t errors = 0, warnings = 0;  // distinct diagnostics and findings
  bool strict = false;
  std::string expectPath;  // --expect, or empty
};

std::string formatSummaryTable(const std::vector<CheckRun>& runs, const std::vector<ArgMode>& modes,
                               const CheckVerdicts& v);

std::string formatCheckJson(const std::vector<CheckRun>& runs, const std::vector<ArgMode>& modes,
                            const CheckVerdicts& v, const CheckTotals& totals);

// A finding as an entry of the report's "diagnostics" array: {"kind", "severity", "message"}.
std::string findingJson(const Finding& f);

}  // namespace spvsim::tools
