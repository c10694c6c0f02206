// `spvsim check`'s result records (README "Sharded sweeps"): one JSON object per configuration
// run, one line each in a JSON Lines file (--results), holding everything the report needs
// (the configuration, its diagnostics, digests and small contents of its buffers), so that a
// report from merged shards is the report of one run: both are made from records.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/cli/check_compare.h"
#include "tools/cli/check_verdict.h"
#include "tools/cli/json_value.h"

namespace spvsim::tools {

// How the runs of a launch are judged (--strict, --expect, --ignore, --unordered): the same
// in every record of a launch.
struct CheckSettings {
  bool strict = false;
  std::string expect;  // --expect's path; "captured" for a bundle's result; "" none
  std::vector<ArgMode> modes;
  bool operator==(const CheckSettings&) const = default;
};

struct CheckRecord {
  std::string id;               // configId
  std::string launch;           // the input as given (a path)
  std::string launchHash;       // hex64 of launchHash: records of one launch share it
  std::string sweep;            // `spvsim check DIR`: DIR; else ""
  uint64_t index = 0;           // position in the whole sweep's list of configurations
  uint64_t position = 0;        // position among the launch's configurations
  uint64_t configurations = 0;  // the launch's configurations
  CheckSettings settings;
  CheckRun run;
  std::vector<JsonValue> diagnostics;        // as --json writes them (the contract)
  std::vector<std::string> diagnosticLines;  // as stderr shows them
  std::string output;  // position 0 only: stdout (printf output, --dump lines)

  // "pass", "warning", "error" or "aborted": the run on its own (before comparison).
  std::string verdict() const;
};

// One line of JSON, without the newline.
std::string recordLine(const CheckRecord& record);

// Throws Error(DiagnosticKind::Input) "NAME:LINE: message" for a line that is not a record.
CheckRecord parseRecord(std::string_view line, const std::string& name, uint64_t lineNumber);

// A results file as read back: its complete records and, when its last line has no newline
// (an interrupted append), where that line starts.
struct ResultsFile {
  std::vector<CheckRecord> records;
  std::optional<uint64_t> incompleteAt;  // byte offset of the incomplete last line
};

// Reads `path` (absent: no records). Warns on `err` about an incomplete last line. Throws
// Error(DiagnosticKind::Input) for a folder, an unreadable file or a malformed line.
ResultsFile readResults(const std::string& path, std::ostream& err);

// Appends records to a results file: each record is one write() of its line and newline
// (O_APPEND), so an interruption leaves whole lines and at most one incomplete last line,
// which readResults skips and the constructor cuts off before appending.
class ResultsAppender {
 public:
  ResultsAppender(const std::string& path, std::optional<uint64_t> incompleteAt);
  ~ResultsAppender();
  ResultsAppender(const ResultsAppender&) = delete;
  ResultsAppender& operator=(const ResultsAppender&) = delete;
  void append(const CheckRecord& record);

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace spvsim::tools
