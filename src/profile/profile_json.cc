// `--profile-json`: the fields are documented in README.md "Profiles".
#include <fmt/format.h>

#include "src/profile/profile_report.h"

namespace spvsim::profile {
namespace {

std::string triple(const std::array<uint64_t, 3>& v, uint32_t dims) {
  std::string s = "[";
  for (uint32_t d = 0; d < dims; ++d) s += fmt::format("{}{}", d ? ", " : "", v[d]);
  return s + "]";
}

std::string countsJson(const Counts& c, uint32_t width) {
  return fmt::format(
      "\"executions\": {}, \"lane_executions\": {}, \"utilisation\": {:.6f}, "
      "\"divergent\": {}",
      c.executions, c.laneExecutions, utilisation(c, width), c.splits);
}

std::string trafficJson(const Traffic& t) {
  return fmt::format("\"bytes_read\": {}, \"bytes_written\": {}, \"reads\": {}, \"writes\": {}",
                     t.readBytes, t.writtenBytes, t.reads, t.writes);
}

void instructions(std::string& out, const std::vector<InstructionRow>& rows, uint32_t width) {
  out += "    \"instructions\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    const InstructionRow& r = rows[i];
    out += fmt::format(
        "{}\n      {{\"index\": {}, \"result\": {}, \"opcode\": {}, \"text\": {}, "
        "\"function\": {}, \"line\": {}, \"branch\": {}, {}}}",
        i ? "," : "", r.info.index, r.info.result, jsonString(r.info.opcode),
        jsonString(r.info.text), jsonString(r.info.function), jsonString(r.info.line),
        r.info.branch ? "true" : "false", countsJson(r.counts, width));
  }
  out += "\n    ],\n";
}

void lines(std::string& out, const std::vector<LineRow>& rows, uint32_t width) {
  out += "    \"lines\": [";
  for (size_t i = 0; i < rows.size(); ++i)
    out += fmt::format("{}\n      {{\"file\": {}, \"line\": {}, \"instructions\": {}, {}}}",
                       i ? "," : "", jsonString(rows[i].file), rows[i].line, rows[i].instructions,
                       countsJson(rows[i].counts, width));
  out += "\n    ],\n";
}

void timeline(std::string& out, const LaunchProfile& p, const ThreadLayout& layout) {
  out += "    \"threads\": [";
  for (size_t i = 0; i < layout.rows.size(); ++i) {
    const ThreadRow& r = layout.rows[i];
    out += fmt::format(
        "{}\n      {{\"row\": {}, \"thread\": {}, \"slot\": {}, \"steps\": {}, \"groups\": [",
        i ? "," : "", i, r.thread, r.slot, r.timeline->steps);
    for (size_t g = 0; g < r.timeline->groups.size(); ++g) {
      const WorkGroupSpan& w = r.timeline->groups[g];
      out += fmt::format("{}{{\"group\": {}, \"start\": {}, \"end\": {}}}", g ? ", " : "",
                         triple(w.group, p.dims), w.start, w.end);
    }
    out += "]}";
  }
  out += fmt::format("\n    ],\n    \"timeline_truncated\": {},\n    \"timeline\": [",
                     p.timelineTruncated ? "true" : "false");
  for (size_t i = 0; i < layout.subGroups.size(); ++i) {
    const SubGroupTimeline& t = *layout.subGroups[i];
    out += fmt::format(
        "{}\n      {{\"group\": {}, \"sub_group\": {}, \"lanes\": {}, \"row\": {}, "
        "\"segments\": [",
        i ? "," : "", triple(t.group, p.dims), t.subGroup, t.lanes,
        t.thread < layout.rowOf.size() ? layout.rowOf[t.thread] : 0);
    for (size_t s = 0; s < t.segments.size(); ++s)
      out +=
          fmt::format("{}[{}, {}, {}]", s ? ", " : "", jsonString(phaseName(t.segments[s].phase)),
                      t.segments[s].start, t.segments[s].end);
    out += "]}";
  }
  out += "\n    ],\n";
}

std::string instructionJson(const InstructionInfo& info) {
  return fmt::format("\"index\": {}, \"line\": {}, \"text\": {}", info.index, jsonString(info.line),
                     jsonString(info.text));
}

void coalescing(std::string& out, const LaunchProfile& p) {
  const auto rows = coalescingRows(p);
  out += "    \"coalescing\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    const CoalescingCounts& c = rows[i].counts;
    out += fmt::format(
        "{}\n      {{{}, \"executions\": {}, \"accesses\": {}, \"bytes_requested\": {}, "
        "\"lines\": {}, \"efficiency\": {:.6f}}}",
        i ? "," : "", instructionJson(rows[i].info), c.executions, c.accesses, c.requestedBytes,
        c.lines, efficiency(c));
  }
  out += "\n    ],\n";
}

void bankConflicts(std::string& out, const LaunchProfile& p) {
  const auto rows = bankRows(p);
  out += fmt::format("    \"banks\": {},\n    \"bank_conflicts\": [", p.banks);
  for (size_t i = 0; i < rows.size(); ++i) {
    const BankCounts& c = rows[i].counts;
    out += fmt::format(
        "{}\n      {{{}, \"executions\": {}, \"accesses\": {}, \"wavefronts\": {}, "
        "\"max_degree\": {}, \"average_degree\": {:.6f}}}",
        i ? "," : "", instructionJson(rows[i].info), c.executions, c.accesses, c.wavefronts,
        c.maxDegree, averageDegree(c));
  }
  out += "\n    ],\n";
}

void divergence(std::string& out, const std::vector<DivergenceRow>& rows, uint32_t width) {
  out += "    \"divergence\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    const DivergenceRow& r = rows[i];
    out += fmt::format("{}\n      {{", i ? "," : "");
    if (r.byLine)
      out += fmt::format("\"file\": {}, \"line\": {}", jsonString(r.file), r.line);
    else
      out += fmt::format("\"index\": {}, \"text\": {}", r.info.index, jsonString(r.info.text));
    out +=
        fmt::format(", \"executions\": {}, \"lane_executions\": {}, \"active_fraction\": {:.6f}}}",
                    r.counts.executions, r.counts.laneExecutions, utilisation(r.counts, width));
  }
  out += "\n    ],\n";
}

void memory(std::string& out, const LaunchProfile& p) {
  out += "    \"buffers\": [";
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    const BufferTraffic& b = p.buffers[i];
    out += fmt::format("{}\n      {{\"name\": {}, \"space\": {}, {}}}", i ? "," : "",
                       jsonString(b.name), jsonString(spaceName(b.space)), trafficJson(b.traffic));
  }
  out += "\n    ],\n    \"spaces\": {";
  for (Space s : {Space::Global, Space::Constant, Space::Local, Space::Private})
    out += fmt::format("{}\n      {}: {{{}}}", s == Space::Global ? "" : ",",
                       jsonString(spaceName(s)), trafficJson(p.spaces[uint32_t(s)]));
  out += "\n    }\n";
}

void launch(std::string& out, const LaunchProfile& p) {
  const auto rows = instructionRows(p);
  out += fmt::format(
      "    \"kernel\": {},\n    \"global_size\": {},\n    \"global_offset\": {},\n"
      "    \"local_size\": {},\n    \"num_groups\": {},\n    \"sub_group_size\": {},\n"
      "    \"sub_group_instructions\": {},\n    \"lane_instructions\": {},\n"
      "    \"time\": {},\n",
      jsonString(p.kernel), triple(p.globalSize, p.dims), triple(p.globalOffset, p.dims),
      triple(p.localSize, p.dims), triple(p.numGroups, p.dims), p.subGroupSize, totalExecutions(p),
      totalLaneExecutions(p), p.clock);
  const auto lineList = lineRows(rows);
  instructions(out, rows, p.subGroupSize);
  lines(out, lineList, p.subGroupSize);
  divergence(out, divergenceRows(rows, lineList), p.subGroupSize);
  coalescing(out, p);
  bankConflicts(out, p);
  timeline(out, p, threadLayout(p));
  memory(out, p);
}

}  // namespace

std::string profileJson(const std::vector<const LaunchProfile*>& launches) {
  std::string out = "{\"launches\": [";
  for (size_t i = 0; i < launches.size(); ++i) {
    out += i ? ",\n  {\n" : "\n  {\n";
    launch(out, *launches[i]);
    out += "  }";
  }
  return out + "\n]}\n";
}

}  // namespace spvsim::profile
