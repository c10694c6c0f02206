#include <algorithm>
#include <map>
#include <unordered_map>

#include "spirv/text.h"
#include "src/profile/profile_report.h"

namespace spvsim::profile {

double utilisation(const Counts& c, uint32_t subGroupSize) {
  return c.executions && subGroupSize
             ? double(c.laneExecutions) / (double(c.executions) * double(subGroupSize))
             : 0.0;
}

std::vector<InstructionRow> instructionRows(const LaunchProfile& p) {
  std::vector<InstructionRow> rows;
  for (const InstructionInfo& info : p.instructions) rows.push_back({info, {}});
  for (size_t pc = 0; pc < p.counts.size(); ++pc) {
    Counts& c = rows[p.pcSource[pc]].counts;
    c.executions += p.counts[pc].executions;
    c.laneExecutions += p.counts[pc].laneExecutions;
    c.splits += p.counts[pc].splits;
  }
  std::sort(rows.begin(), rows.end(), [](const InstructionRow& a, const InstructionRow& b) {
    return a.info.index < b.info.index;
  });
  return rows;
}

std::vector<LineRow> lineRows(const std::vector<InstructionRow>& rows) {
  std::map<std::pair<std::string, uint32_t>, LineRow> lines;
  for (const InstructionRow& r : rows) {
    const size_t colon = r.info.line.rfind(':');
    if (colon == std::string::npos) continue;
    const std::string file = r.info.line.substr(0, colon);
    const uint32_t line = uint32_t(std::strtoul(r.info.line.c_str() + colon + 1, nullptr, 10));
    LineRow& l = lines[{file, line}];
    l.file = file;
    l.line = line;
    l.counts.executions += r.counts.executions;
    l.counts.laneExecutions += r.counts.laneExecutions;
    l.counts.splits += r.counts.splits;
    ++l.instructions;
  }
  std::vector<LineRow> out;
  for (auto& [key, row] : lines) out.push_back(std::move(row));
  return out;
}

const char* phaseName(SubGroupPhase phase) {
  switch (phase) {
    case SubGroupPhase::Running:
      return "running";
    case SubGroupPhase::AtBarrier:
      return "barrier";
    case SubGroupPhase::Done:
      return "done";
  }
  return "?";
}

std::string escapeHtml(const std::string& s) { return spirv::markupText(s); }

// File names and instruction text come from the module: the shared writer keeps the
// report valid UTF-8 whatever bytes they hold.
std::string jsonString(const std::string& s) { return spirv::jsonStringLiteral(s); }

}  // namespace spvsim::profile
