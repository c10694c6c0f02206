// A launch profile (src/profile/profiler.h) as the reports show it: per SPIR-V
// instruction, per source line, the worst offenders first (divergence, coalescing, bank
// conflicts), per host thread, and as text (`--profile-text`), JSON (`--profile-json`) or
// a self-contained HTML page (`--profile`). README.md "Profiles" documents the JSON
// fields.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "src/profile/profiler.h"

namespace spvsim::profile {

struct Counts {
  uint64_t executions = 0, laneExecutions = 0, splits = 0;
};

struct InstructionRow {
  InstructionInfo info;
  Counts counts;
};

struct LineRow {
  std::string file;
  uint32_t line = 0;
  Counts counts;
  uint32_t instructions = 0;  // SPIR-V instructions of the line that were lowered
};

// lane executions / (executions * sub-group size); 0 when never executed.
double utilisation(const Counts& c, uint32_t subGroupSize);

// Every SPIR-V instruction the launch's code came from, in module order.
std::vector<InstructionRow> instructionRows(const LaunchProfile& p);
// The same added up per source line (instructions with line info), by file then line.
std::vector<LineRow> lineRows(const std::vector<InstructionRow>& rows);

const char* phaseName(SubGroupPhase phase);

// Global memory coalescing per SPIR-V instruction that accessed global memory, the least
// efficient first (then the most bytes requested).
struct CoalescingRow {
  InstructionInfo info;
  CoalescingCounts counts;
};
// requested bytes / (lines x 64); 0 when nothing was touched. Above 1 where lanes read
// the same bytes (one line serves them all).
double efficiency(const CoalescingCounts& c);
std::vector<CoalescingRow> coalescingRows(const LaunchProfile& p);

// Local memory bank conflicts per SPIR-V instruction that accessed local memory, the
// highest average degree first (then the highest maximum, the most executions).
struct BankRow {
  InstructionInfo info;
  BankCounts counts;
};
// wavefronts / executions: the average conflict degree (1: no conflict).
double averageDegree(const BankCounts& c);
std::vector<BankRow> bankRows(const LaunchProfile& p);

// Lanes active / sub-group size, averaged over executions, per source line where the
// module has line information (`line` set), else per SPIR-V instruction; the lowest
// first (then the most executions). Only what executed.
struct DivergenceRow {
  bool byLine = false;
  std::string file;  // byLine
  uint32_t line = 0;
  InstructionInfo info;  // !byLine
  Counts counts;
  std::string where() const;  // "k.cl:6" or "%12 = OpLoad ..."
};
std::vector<DivergenceRow> divergenceRows(const std::vector<InstructionRow>& rows,
                                          const std::vector<LineRow>& lines);

// The slots' timelines as the reports show them: ordered by the first work-group each
// ran (those that ran none last), host threads renumbered in that order.
struct ThreadRow {
  const HostThreadTimeline* timeline = nullptr;
  uint32_t thread = 0;  // the host thread, renumbered
  uint32_t slot = 0;
  bool sharedThread = false;  // the thread has other slots (--forward-progress occupancy)
};
struct ThreadLayout {
  std::vector<ThreadRow> rows;
  std::vector<uint32_t> rowOf;  // by LaunchProfile::threads index: its place in rows
  // The sub-groups' timelines by work-group (linear) and sub-group.
  std::vector<const SubGroupTimeline*> subGroups;
};
ThreadLayout threadLayout(const LaunchProfile& p);
// Host threads that ran the launch (rows are slots: several per thread under
// --forward-progress occupancy).
size_t hostThreadCount(const LaunchProfile& p);
// "0-3, 8, 10-12": linear work-group ids as ranges, at most `most` items ("..." after).
std::string groupRanges(const HostThreadTimeline& t, size_t most);

// The plain-text report (`--profile-text`): each launch's summary, host threads and the
// worst offenders of each table, at most `rows` lines per table.
std::string profileText(const std::vector<const LaunchProfile*>& launches, size_t rows = 10);

// The launches' profiles as one JSON document: {"launches": [...]}.
std::string profileJson(const std::vector<const LaunchProfile*>& launches);

// The HTML page. `readSource` gives a source file's text by the name its line info
// uses, or "" where it cannot be read (the page then lists only the lines that ran).
using SourceReader = std::function<std::string(const std::string& file)>;
std::string profileHtml(const std::vector<const LaunchProfile*>& launches, SourceReader readSource);

// Text for HTML element content and attribute values.
std::string escapeHtml(const std::string& s);
// A JSON string literal.
std::string jsonString(const std::string& s);

}  // namespace spvsim::profile
