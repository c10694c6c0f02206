// `--profile-text`: the profile as plain text, for a terminal: each launch's summary, its
// host threads, and the worst offenders first (divergence, global memory coalescing,
// local memory bank conflicts). The JSON and the page have every row.
#include <fmt/format.h>

#include "src/profile/profile_report.h"

namespace spvsim::profile {
namespace {

std::string sizes(const std::array<uint64_t, 3>& v, uint32_t dims) {
  std::string s;
  for (uint32_t d = 0; d < dims; ++d) s += fmt::format("{}{}", d ? "x" : "", v[d]);
  return s;
}

// "file:line" or "instruction N", and the instruction's text.
std::string place(const InstructionInfo& info) {
  return info.line.empty() ? fmt::format("instruction {}", info.index) : info.line;
}

std::string more(size_t shown, size_t all) {
  return shown < all ? fmt::format("  ... {} more (see --profile-json)\n", all - shown) : "";
}

void threads(std::string& out, const LaunchProfile& p) {
  const ThreadLayout layout = threadLayout(p);
  const size_t threads = hostThreadCount(p);
  out += fmt::format(
      "host threads: {}{} (time: the sub-group instructions each thread executed; the longest "
      "{})\n",
      threads,
      threads == layout.rows.size() ? "" : fmt::format(", {} resident slots", layout.rows.size()),
      p.clock);
  for (const ThreadRow& r : layout.rows) {
    const std::string name = r.sharedThread ? fmt::format("thread {} slot {}", r.thread, r.slot)
                                            : fmt::format("thread {}", r.thread);
    out +=
        fmt::format("  {:<16} {:>6} work-groups {:>12} steps{}\n", name, r.timeline->groups.size(),
                    r.timeline->steps,
                    r.timeline->groups.empty() ? "" : "  groups " + groupRanges(*r.timeline, 12));
  }
}

void divergence(std::string& out, const LaunchProfile& p, const std::vector<DivergenceRow>& rows,
                size_t most) {
  out += fmt::format(
      "divergence: lanes active / sub-group size ({}), averaged over executions, lowest "
      "first{}\n",
      p.subGroupSize,
      rows.empty() || rows[0].byLine ? "" : " (no line information: per instruction)");
  size_t n = 0;
  for (const DivergenceRow& r : rows) {
    if (n == most) break;
    ++n;
    out += fmt::format("  {:>6.1f}%  {:>6.2f} of {} lanes  {:>10} executions  {}\n",
                       100 * utilisation(r.counts, p.subGroupSize),
                       double(r.counts.laneExecutions) / double(r.counts.executions),
                       p.subGroupSize, r.counts.executions, r.where());
  }
  if (rows.empty()) out += "  nothing executed\n";
  out += more(n, rows.size());
}

void coalescing(std::string& out, const LaunchProfile& p, size_t most) {
  const auto rows = coalescingRows(p);
  out += fmt::format(
      "global memory coalescing: bytes the active lanes requested / (64-byte lines touched x "
      "64), per sub-group execution, summed; lowest first\n");
  size_t n = 0;
  for (const CoalescingRow& r : rows) {
    if (n == most) break;
    ++n;
    const CoalescingCounts& c = r.counts;
    out += fmt::format("  {:>7.2f}%  {:>12} bytes in {:>10} lines  {:>10} executions  {}  {}\n",
                       100 * efficiency(c), c.requestedBytes, c.lines, c.executions, place(r.info),
                       r.info.text);
  }
  if (rows.empty()) out += "  no global memory access\n";
  out += more(n, rows.size());
}

void banks(std::string& out, const LaunchProfile& p, size_t most) {
  const auto rows = bankRows(p);
  out += fmt::format(
      "local memory bank conflicts ({} banks of 4-byte words): wavefronts per sub-group "
      "access (1: none), highest first\n",
      p.banks);
  size_t n = 0;
  for (const BankRow& r : rows) {
    if (n == most) break;
    ++n;
    out += fmt::format("  average {:>6.2f}  max {:>4}  {:>10} executions  {}  {}\n",
                       averageDegree(r.counts), r.counts.maxDegree, r.counts.executions,
                       place(r.info), r.info.text);
  }
  if (rows.empty()) out += "  no local memory access\n";
  out += more(n, rows.size());
}

void launch(std::string& out, const LaunchProfile& p, size_t i, size_t most) {
  const auto rows = instructionRows(p);
  const Counts total{totalExecutions(p), totalLaneExecutions(p), 0};
  out += fmt::format(
      "launch {}: kernel {}, global {}, local {}, {} work-groups, sub-group size {}\n"
      "  {} sub-group instructions, {} lane instructions, SIMD utilisation {:.1f}%\n",
      i, p.kernel, sizes(p.globalSize, p.dims), sizes(p.localSize, p.dims),
      p.numGroups[0] * p.numGroups[1] * p.numGroups[2], p.subGroupSize, total.executions,
      total.laneExecutions, 100 * utilisation(total, p.subGroupSize));
  threads(out, p);
  divergence(out, p, divergenceRows(rows, lineRows(rows)), most);
  coalescing(out, p, most);
  banks(out, p, most);
}

}  // namespace

std::string profileText(const std::vector<const LaunchProfile*>& launches, size_t rows) {
  std::string out;
  for (size_t i = 0; i < launches.size(); ++i) {
    if (i) out += '\n';
    launch(out, *launches[i], i, rows);
  }
  return out;
}

}  // namespace spvsim::profile
