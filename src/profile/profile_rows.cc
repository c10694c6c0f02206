#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
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

namespace {

// Folds per-pc counters into the SPIR-V instruction each pc came from, keeping those
// that `keep` says executed.
template <class C, class Add, class Keep>
std::vector<std::pair<InstructionInfo, C>> foldByInstruction(const LaunchProfile& p,
                                                             const std::vector<C>& byPc, Add add,
                                                             Keep keep) {
  std::vector<C> folded(p.instructions.size());
  for (size_t pc = 0; pc < byPc.size() && pc < p.pcSource.size(); ++pc)
    add(folded[p.pcSource[pc]], byPc[pc]);
  std::vector<std::pair<InstructionInfo, C>> out;
  for (size_t i = 0; i < folded.size(); ++i)
    if (keep(folded[i])) out.push_back({p.instructions[i], folded[i]});
  return out;
}

}  // namespace

double efficiency(const CoalescingCounts& c) {
  return c.lines ? double(c.requestedBytes) / double(c.lines * kLineBytes) : 0.0;
}

std::vector<CoalescingRow> coalescingRows(const LaunchProfile& p) {
  auto folded = foldByInstruction(
      p, p.coalescing,
      [](CoalescingCounts& a, const CoalescingCounts& b) {
        a.executions += b.executions;
        a.accesses += b.accesses;
        a.requestedBytes += b.requestedBytes;
        a.lines += b.lines;
      },
      [](const CoalescingCounts& c) { return c.executions != 0; });
  std::vector<CoalescingRow> rows;
  for (auto& [info, c] : folded) rows.push_back({std::move(info), c});
  std::stable_sort(rows.begin(), rows.end(), [](const CoalescingRow& a, const CoalescingRow& b) {
    const double ea = efficiency(a.counts), eb = efficiency(b.counts);
    if (ea != eb) return ea < eb;
    if (a.counts.requestedBytes != b.counts.requestedBytes)
      return a.counts.requestedBytes > b.counts.requestedBytes;
    return a.info.index < b.info.index;
  });
  return rows;
}

double averageDegree(const BankCounts& c) {
  return c.executions ? double(c.wavefronts) / double(c.executions) : 0.0;
}

std::vector<BankRow> bankRows(const LaunchProfile& p) {
  auto folded = foldByInstruction(
      p, p.bankConflicts,
      [](BankCounts& a, const BankCounts& b) {
        a.executions += b.executions;
        a.accesses += b.accesses;
        a.wavefronts += b.wavefronts;
        a.maxDegree = std::max(a.maxDegree, b.maxDegree);
      },
      [](const BankCounts& c) { return c.executions != 0; });
  std::vector<BankRow> rows;
  for (auto& [info, c] : folded) rows.push_back({std::move(info), c});
  std::stable_sort(rows.begin(), rows.end(), [](const BankRow& a, const BankRow& b) {
    const double da = averageDegree(a.counts), db = averageDegree(b.counts);
    if (da != db) return da > db;
    if (a.counts.maxDegree != b.counts.maxDegree) return a.counts.maxDegree > b.counts.maxDegree;
    if (a.counts.executions != b.counts.executions)
      return a.counts.executions > b.counts.executions;
    return a.info.index < b.info.index;
  });
  return rows;
}

std::string DivergenceRow::where() const {
  return byLine ? fmt::format("{}:{}", file, line) : info.text;
}

std::vector<DivergenceRow> divergenceRows(const std::vector<InstructionRow>& rows,
                                          const std::vector<LineRow>& lines) {
  std::vector<DivergenceRow> out;
  if (!lines.empty()) {
    for (const LineRow& l : lines)
      if (l.counts.executions) out.push_back({true, l.file, l.line, {}, l.counts});
  } else {
    for (const InstructionRow& r : rows)
      if (r.counts.executions) out.push_back({false, "", 0, r.info, r.counts});
  }
  // The sub-group size is the launch's for every row: laneExecutions / executions orders
  // them as the utilisation does.
  std::stable_sort(out.begin(), out.end(), [](const DivergenceRow& a, const DivergenceRow& b) {
    const double ua = double(a.counts.laneExecutions) / double(a.counts.executions);
    const double ub = double(b.counts.laneExecutions) / double(b.counts.executions);
    if (ua != ub) return ua < ub;
    return a.counts.executions > b.counts.executions;
  });
  return out;
}

ThreadLayout threadLayout(const LaunchProfile& p) {
  ThreadLayout layout;
  std::vector<size_t> order(p.threads.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto first = [&](size_t i) {
    return p.threads[i].groups.empty() ? ~uint64_t(0) : p.threads[i].groups.front().linearGroup;
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (first(a) != first(b)) return first(a) < first(b);
    return std::pair(p.threads[a].thread, p.threads[a].slot) <
           std::pair(p.threads[b].thread, p.threads[b].slot);
  });
  std::map<uint32_t, uint32_t> renumbered, slots;
  for (const HostThreadTimeline& t : p.threads) ++slots[t.thread];
  layout.rowOf.resize(p.threads.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const HostThreadTimeline& t = p.threads[order[i]];
    const auto [it, added] = renumbered.emplace(t.thread, uint32_t(renumbered.size()));
    layout.rows.push_back({&t, it->second, t.slot, slots[t.thread] > 1});
    layout.rowOf[order[i]] = uint32_t(i);
  }
  for (const SubGroupTimeline& t : p.timeline) layout.subGroups.push_back(&t);
  std::stable_sort(layout.subGroups.begin(), layout.subGroups.end(),
                   [](const SubGroupTimeline* a, const SubGroupTimeline* b) {
                     return std::pair(a->linearGroup, a->subGroup) <
                            std::pair(b->linearGroup, b->subGroup);
                   });
  return layout;
}

size_t hostThreadCount(const LaunchProfile& p) {
  std::set<uint32_t> threads;
  for (const HostThreadTimeline& t : p.threads) threads.insert(t.thread);
  return threads.size();
}

std::string groupRanges(const HostThreadTimeline& t, size_t most) {
  std::vector<uint64_t> ids;
  for (const WorkGroupSpan& g : t.groups) ids.push_back(g.linearGroup);
  std::sort(ids.begin(), ids.end());
  std::string out;
  size_t items = 0;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (items == most) return out + ", ...";
    out += fmt::format("{}{}", items ? ", " : "", ids[i]);
    if (j > i) out += fmt::format("-{}", ids[j]);
    ++items;
    i = j + 1;
  }
  return out;
}

std::string escapeHtml(const std::string& s) { return spirv::markupText(s); }

// File names and instruction text come from the module: the shared writer keeps the
// report valid UTF-8 whatever bytes they hold.
std::string jsonString(const std::string& s) { return spirv::jsonStringLiteral(s); }

}  // namespace spvsim::profile
