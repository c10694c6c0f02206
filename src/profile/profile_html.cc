// `--profile`: one self-contained HTML page (inline CSS, JS and SVG; nothing fetched).
// Every text that comes from the module or the command line goes through escapeHtml.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "src/profile/profile_report.h"

namespace spvsim::profile {
namespace {

// Timeline rows (host threads) drawn; the JSON has them all.
constexpr size_t kMaxTimelineRows = 256;
constexpr double kTimelineWidth = 1000.0;
// Segments, work-group blocks and their labels drawn at most (a page stays small enough
// to open); the JSON has them all.
constexpr size_t kMaxDrawnSegments = 50000;
constexpr size_t kMaxDrawnGroups = 20000;
constexpr size_t kMaxGroupLabels = 5000;

const char* kStyle = R"(<style>
body{font-family:sans-serif;margin:1em 2em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}
th,td{border:1px solid #ccc;padding:2px 6px;text-align:right;font-size:13px}
td{white-space:nowrap}
th{background:#eee;cursor:pointer}
td.t{text-align:left;font-family:monospace;white-space:pre}
.bar{display:inline-block;height:10px;background:#ddd;width:100px;position:relative}
.bar span{position:absolute;left:0;top:0;height:10px}
.none{color:#999}
rect.running{fill:#4a9d4a} rect.barrier{fill:#e0a020} rect.done{fill:#bbb}
rect.group{fill:#eef3fb;stroke:#7a8fb0;stroke-width:.5}
p.means{max-width:60em}
</style>
)";

// Click a column header to sort its table (numbers numerically).
const char* kScript = R"(<script>
document.querySelectorAll('table.sortable th').forEach(function(th,i){
 th.addEventListener('click',function(){
  var body=th.closest('table').tBodies[0],rows=Array.from(body.rows),up=th.dataset.up!=='1';
  th.dataset.up=up?'1':'0';
  rows.sort(function(a,b){var x=a.cells[i].dataset.v||a.cells[i].textContent,
   y=b.cells[i].dataset.v||b.cells[i].textContent,nx=parseFloat(x),ny=parseFloat(y);
   var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);return up?c:-c;});
  rows.forEach(function(r){body.appendChild(r);});});});
</script>
)";

std::string sizes(const std::array<uint64_t, 3>& v, uint32_t dims) {
  std::string s;
  for (uint32_t d = 0; d < dims; ++d) s += fmt::format("{}{}", d ? " x " : "", v[d]);
  return s;
}

// Red (empty) to green (full).
std::string colour(double u) {
  return fmt::format("hsl({:.0f},70%,45%)", 120.0 * std::clamp(u, 0.0, 1.0));
}

std::string utilCells(const Counts& c, uint32_t width) {
  if (!c.executions) return "<td class=\"none\">-</td><td class=\"none\" data-v=\"-1\">-</td>";
  const double u = utilisation(c, width);
  return fmt::format(
      "<td>{:.2f}</td><td data-v=\"{:.4f}\"><span class=\"bar\"><span style=\"width:{:.0f}px;"
      "background:{}\"></span></span> {:.1f}%</td>",
      double(c.laneExecutions) / double(c.executions), u, u * 100, colour(u), u * 100);
}

std::string countCells(const Counts& c, uint32_t width) {
  return fmt::format("<td>{}</td><td>{}</td>{}<td>{}</td>", c.executions, c.laneExecutions,
                     utilCells(c, width), c.splits);
}

const char* kCountHeads =
    "<th>executions</th><th>lane executions</th><th>avg active lanes</th>"
    "<th>SIMD utilisation</th><th>divergent</th>";

void summary(std::string& out, const LaunchProfile& p) {
  Counts total{totalExecutions(p), totalLaneExecutions(p), 0};
  out += fmt::format(
      "<table class=\"summary\"><tr><th>kernel</th><td class=\"t\">{}</td></tr>"
      "<tr><th>global size</th><td>{}</td></tr><tr><th>global offset</th><td>{}</td></tr>"
      "<tr><th>local size</th><td>{}</td></tr><tr><th>work-groups</th><td>{}</td></tr>"
      "<tr><th>sub-group size</th><td>{}</td></tr>"
      "<tr><th>sub-group instructions</th><td id=\"sub-group-instructions\">{}</td></tr>"
      "<tr><th>lane instructions</th><td id=\"lane-instructions\">{}</td></tr>"
      "<tr><th>SIMD utilisation</th><td>{:.1f}%</td></tr>"
      "<tr><th>host threads</th><td id=\"host-threads\">{}</td></tr>"
      "<tr><th>local memory banks</th><td>{} of 4 bytes</td></tr></table>\n",
      escapeHtml(p.kernel), sizes(p.globalSize, p.dims), sizes(p.globalOffset, p.dims),
      sizes(p.localSize, p.dims), sizes(p.numGroups, p.dims), p.subGroupSize, total.executions,
      total.laneExecutions, utilisation(total, p.subGroupSize) * 100, hostThreadCount(p), p.banks);
}

void sourceView(std::string& out, const std::vector<LineRow>& lines, uint32_t width,
                SourceReader readSource) {
  out += "<h3>Source lines</h3>\n";
  if (lines.empty()) out += "<p>The module has no line information.</p>\n";
  std::map<std::string, std::vector<const LineRow*>> byFile;
  for (const LineRow& l : lines) byFile[l.file].push_back(&l);
  for (const auto& [file, rows] : byFile) {
    std::vector<std::string> text;
    const std::string source = readSource ? readSource(file) : "";
    for (size_t at = 0; at < source.size();) {
      size_t end = source.find('\n', at);
      if (end == std::string::npos) end = source.size();
      text.push_back(source.substr(at, end - at));
      at = end + 1;
    }
    out += fmt::format(
        "<h4>{}</h4>\n<table class=\"source sortable\"><thead><tr><th>line</th>{}"
        "<th>source</th></tr></thead><tbody>\n",
        escapeHtml(file), kCountHeads);
    std::map<uint32_t, const LineRow*> counted;
    for (const LineRow* r : rows) counted[r->line] = r;
    const uint32_t last = std::max<uint32_t>(uint32_t(text.size()), counted.rbegin()->first);
    for (uint32_t n = 1; n <= last; ++n) {
      auto it = counted.find(n);
      if (it == counted.end() && text.empty()) continue;
      const std::string code = n <= text.size() ? escapeHtml(text[n - 1]) : "";
      out += fmt::format("<tr class=\"line\"><td>{}</td>{}<td class=\"t\">{}</td></tr>\n", n,
                         it != counted.end() ? countCells(it->second->counts, width)
                                             : "<td></td><td></td><td></td><td></td><td></td>",
                         code);
    }
    out += "</tbody></table>\n";
  }
}

void instructionTable(std::string& out, const std::vector<InstructionRow>& rows, uint32_t width) {
  out += fmt::format(
      "<h3>SPIR-V instructions</h3>\n<table class=\"instructions sortable\"><thead><tr>"
      "<th>index</th><th>function</th><th>line</th><th>instruction</th>{}</tr></thead><tbody>\n",
      kCountHeads);
  for (const InstructionRow& r : rows)
    out += fmt::format(
        "<tr class=\"inst\"><td>{}</td><td class=\"t\">{}</td><td class=\"t\">{}</td><td "
        "class=\"t\">{}</td>{}"
        "</tr>\n",
        r.info.index, escapeHtml(r.info.function), escapeHtml(r.info.line), escapeHtml(r.info.text),
        countCells(r.counts, width));
  out += "</tbody></table>\n";
}

void divergence(std::string& out, const std::vector<InstructionRow>& rows) {
  out +=
      "<h3>Divergence points</h3>\n<table class=\"divergence sortable\"><thead><tr><th>index</th>"
      "<th>line</th><th>instruction</th><th>executions</th><th>divergent</th><th>share</th>"
      "</tr></thead><tbody>\n";
  size_t n = 0;
  for (const InstructionRow& r : rows) {
    if (!r.counts.splits) continue;
    ++n;
    out += fmt::format(
        "<tr class=\"split\"><td>{}</td><td class=\"t\">{}</td><td "
        "class=\"t\">{}</td><td>{}</td><td>{}</td>"
        "<td>{:.1f}%</td></tr>\n",
        r.info.index, escapeHtml(r.info.line), escapeHtml(r.info.text), r.counts.executions,
        r.counts.splits, 100.0 * double(r.counts.splits) / double(r.counts.executions));
  }
  out += "</tbody></table>\n";
  if (!n) out += "<p>No branch split a sub-group's active lanes.</p>\n";
}

void activeLanes(std::string& out, const std::vector<DivergenceRow>& rows, uint32_t width) {
  const bool byLine = rows.empty() || rows[0].byLine;
  out += fmt::format(
      "<h3>Active lanes</h3>\n<p class=\"means\">Per {}: the active lanes of each execution "
      "divided by the sub-group size ({}), averaged over its executions. 100% means every "
      "lane of every sub-group ran it; less means divergent branches or partial sub-groups "
      "left lanes idle. Lowest first.</p>\n",
      byLine ? "source line" : "SPIR-V instruction (the module has no line information)", width);
  if (rows.empty()) {
    out += "<p>Nothing executed.</p>\n";
    return;
  }
  out += fmt::format(
      "<table class=\"active sortable\"><thead><tr><th>{}</th><th>executions</th>"
      "<th>avg active lanes</th><th>active / sub-group size</th></tr></thead><tbody>\n",
      byLine ? "line" : "instruction");
  for (const DivergenceRow& r : rows)
    out += fmt::format("<tr class=\"active\"><td class=\"t\">{}</td><td>{}</td>{}</tr>\n",
                       escapeHtml(r.where()), r.counts.executions, utilCells(r.counts, width));
  out += "</tbody></table>\n";
}

// Green at full efficiency, red at none.
std::string efficiencyCell(double e) {
  return fmt::format(
      "<td data-v=\"{:.6f}\"><span class=\"bar\"><span style=\"width:{:.0f}px;"
      "background:{}\"></span></span> {:.2f}%</td>",
      e, std::min(e, 1.0) * 100, colour(e), e * 100);
}

void coalescing(std::string& out, const LaunchProfile& p) {
  const auto rows = coalescingRows(p);
  out +=
      "<h3>Global memory coalescing</h3>\n<p class=\"means\">Per SPIR-V instruction that "
      "accessed global memory: each time a sub-group executed it, the bytes its active lanes "
      "requested and the 64-byte lines (aligned blocks of the buffer, counted from its start) "
      "those bytes lie in, added up over its executions. Efficiency is requested bytes / "
      "(lines &times; 64): 100% when the lanes read or write whole lines together "
      "(consecutive addresses), 6.25% when each of 16 four-byte lanes touches a line of its "
      "own; above 100% when lanes share bytes (one line serves them all). Lowest first.</p>\n";
  if (rows.empty()) {
    out += "<p>No instruction accessed global memory.</p>\n";
    return;
  }
  out +=
      "<table class=\"coalescing sortable\"><thead><tr><th>index</th><th>line</th>"
      "<th>instruction</th><th>executions</th><th>lane accesses</th><th>bytes requested</th>"
      "<th>lines touched</th><th>lines per execution</th><th>efficiency</th></tr></thead>"
      "<tbody>\n";
  for (const CoalescingRow& r : rows) {
    const CoalescingCounts& c = r.counts;
    out += fmt::format(
        "<tr class=\"coalescing\"><td>{}</td><td class=\"t\">{}</td><td class=\"t\">{}</td>"
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2f}</td>{}</tr>\n",
        r.info.index, escapeHtml(r.info.line), escapeHtml(r.info.text), c.executions, c.accesses,
        c.requestedBytes, c.lines, double(c.lines) / double(c.executions),
        efficiencyCell(efficiency(c)));
  }
  out += "</tbody></table>\n";
}

void bankConflicts(std::string& out, const LaunchProfile& p) {
  const auto rows = bankRows(p);
  out += fmt::format(
      "<h3>Local memory bank conflicts</h3>\n<p class=\"means\">Per SPIR-V instruction that "
      "accessed local memory, for {} banks of 4-byte words (word w of the work-group's local "
      "memory is in bank w mod {}; --profile-banks): each time a sub-group executed it, the "
      "conflict degree is the most distinct words its active lanes touched in any one bank, "
      "the wavefronts the access takes. Lanes on the same word share it (a broadcast, no "
      "conflict); 1 means no conflict, N means N times the time of a conflict-free access. "
      "Highest average first.</p>\n",
      p.banks, p.banks);
  if (rows.empty()) {
    out += "<p>No instruction accessed local memory.</p>\n";
    return;
  }
  out +=
      "<table class=\"banks sortable\"><thead><tr><th>index</th><th>line</th>"
      "<th>instruction</th><th>executions</th><th>lane accesses</th><th>wavefronts</th>"
      "<th>average degree</th><th>max degree</th></tr></thead><tbody>\n";
  for (const BankRow& r : rows) {
    const BankCounts& c = r.counts;
    out += fmt::format(
        "<tr class=\"banks\"><td>{}</td><td class=\"t\">{}</td><td class=\"t\">{}</td><td>{}</td>"
        "<td>{}</td><td>{}</td><td>{:.2f}</td><td>{}</td></tr>\n",
        r.info.index, escapeHtml(r.info.line), escapeHtml(r.info.text), c.executions, c.accesses,
        c.wavefronts, averageDegree(c), c.maxDegree);
  }
  out += "</tbody></table>\n";
}

std::string swatch(const char* cls) {
  return fmt::format(
      "<svg width=\"12\" height=\"10\"><rect class=\"{}\" width=\"12\" height=\"10\"/></svg>", cls);
}

void timeline(std::string& out, const LaunchProfile& p) {
  const ThreadLayout layout = threadLayout(p);
  const size_t rows = std::min(layout.rows.size(), kMaxTimelineRows);
  uint32_t subRows = 1;
  for (const SubGroupTimeline* t : layout.subGroups) subRows = std::max(subRows, t->subGroup + 1);
  size_t segments = 0, groups = 0;
  for (const SubGroupTimeline* t : layout.subGroups)
    if (t->thread < layout.rowOf.size() && layout.rowOf[t->thread] < rows)
      segments += t->segments.size();
  for (size_t i = 0; i < rows; ++i) groups += layout.rows[i].timeline->groups.size();
  const double scale = p.clock ? kTimelineWidth / double(p.clock) : 1.0;
  const double label = 110, head = 12;
  const double subH = subRows <= 8 ? 8.0 : std::max(2.0, 64.0 / double(subRows));
  const double rowH = head + subH * double(subRows) + 6;
  out += fmt::format(
      "<h3>Host-thread timeline</h3>\n<p class=\"means\">One row per host thread (per slot under "
      "--forward-progress occupancy). Time runs left to right in sub-group instructions the "
      "thread executed (0 to {}, the busiest thread's count; threads ran at the same time, "
      "each at its own pace). {} work-group: an outlined block labelled with its id, from its "
      "first instruction to its last; inside it one line per sub-group: {} running {} at a "
      "barrier {} done; blank: waiting for its turn.{}{}</p>\n",
      p.clock, swatch("group"), swatch("running"), swatch("barrier"), swatch("done"),
      rows < layout.rows.size()
          ? fmt::format(" The first {} of {} rows are drawn.", rows, layout.rows.size())
          : "",
      p.timelineTruncated || segments > kMaxDrawnSegments || groups > kMaxDrawnGroups
          ? fmt::format(" The timeline was cut short after {} turns and waits (see the JSON).",
                        std::min(segments, kMaxDrawnSegments))
          : "");
  out += fmt::format(
      "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" "
      "height=\"{:.0f}\">\n",
      label + kTimelineWidth + 10, rowH * double(rows) + 4);
  size_t drawnGroups = 0, labels = 0;
  for (size_t i = 0; i < rows; ++i) {
    const ThreadRow& r = layout.rows[i];
    const double y = rowH * double(i);
    out += fmt::format("<text x=\"0\" y=\"{:.0f}\" font-size=\"11\">{}</text>\n", y + 11,
                       r.sharedThread ? fmt::format("thread {} slot {}", r.thread, r.slot)
                                      : fmt::format("thread {}", r.thread));
    for (const WorkGroupSpan& g : r.timeline->groups) {
      if (drawnGroups == kMaxDrawnGroups) break;
      ++drawnGroups;
      const double x = label + double(g.start) * scale;
      const double w = std::max(0.5, double(g.end - g.start) * scale);
      const std::string id = sizes(g.group, p.dims);
      out += fmt::format(
          "<rect class=\"group\" x=\"{:.2f}\" y=\"{:.0f}\" width=\"{:.2f}\" "
          "height=\"{:.0f}\"><title>work-group ({}): steps {}..{}</title></rect>\n",
          x, y + 1, w, rowH - 3, id, g.start, g.end);
      if (labels < kMaxGroupLabels && w >= 6.0 * double(id.size()) + 4) {
        ++labels;
        out += fmt::format("<text x=\"{:.2f}\" y=\"{:.0f}\" font-size=\"9\">{}</text>\n", x + 2,
                           y + 10, id);
      }
    }
  }
  size_t drawn = 0;
  for (const SubGroupTimeline* t : layout.subGroups) {
    const size_t row = t->thread < layout.rowOf.size() ? layout.rowOf[t->thread] : rows;
    if (row >= rows) continue;
    const double y = rowH * double(row) + head + subH * double(t->subGroup);
    for (const TimelineSegment& s : t->segments) {
      if (drawn == kMaxDrawnSegments) break;
      ++drawn;
      out += fmt::format(
          "<rect class=\"{}\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\">"
          "<title>group ({}) sg {}: {} {}..{}</title></rect>\n",
          phaseName(s.phase), label + double(s.start) * scale, y,
          std::max(0.5, double(s.end - s.start) * scale), std::max(1.0, subH - 1),
          sizes(t->group, p.dims), t->subGroup, phaseName(s.phase), s.start, s.end);
    }
  }
  out += "</svg>\n";
}

std::string trafficCells(const Traffic& t) {
  return fmt::format("<td>{}</td><td>{}</td><td>{}</td><td>{}</td>", t.readBytes, t.reads,
                     t.writtenBytes, t.writes);
}

void memory(std::string& out, const LaunchProfile& p) {
  const char* heads =
      "<th>bytes read</th><th>reads</th><th>bytes written</th><th>writes</th></tr></thead><tbody>";
  out += fmt::format(
      "<h3>Memory traffic</h3>\n<p>Lane accesses: a copy reads its source and writes its "
      "target; a read-modify-write atomic counts as both.</p>\n"
      "<table class=\"buffers sortable\"><thead><tr><th>memory object</th><th>space</th>{}\n",
      heads);
  for (const BufferTraffic& b : p.buffers)
    out +=
        fmt::format("<tr class=\"buffer\"><td class=\"t\">{}</td><td class=\"t\">{}</td>{}</tr>\n",
                    escapeHtml(b.name), spaceName(b.space), trafficCells(b.traffic));
  out += fmt::format(
      "</tbody></table>\n<table class=\"spaces\"><thead><tr><th>address space</th>{}\n", heads);
  for (Space s : {Space::Global, Space::Constant, Space::Local, Space::Private})
    out += fmt::format("<tr class=\"space\"><td class=\"t\">{}</td>{}</tr>\n", spaceName(s),
                       trafficCells(p.spaces[uint32_t(s)]));
  out += "</tbody></table>\n";
}

void launch(std::string& out, const LaunchProfile& p, size_t i, SourceReader readSource) {
  const auto rows = instructionRows(p);
  out += fmt::format("<section class=\"launch\" id=\"launch{}\">\n<h2>Launch {}: {}</h2>\n", i, i,
                     escapeHtml(p.kernel));
  const auto lines = lineRows(rows);
  summary(out, p);
  activeLanes(out, divergenceRows(rows, lines), p.subGroupSize);
  coalescing(out, p);
  bankConflicts(out, p);
  timeline(out, p);
  sourceView(out, lines, p.subGroupSize, readSource);
  instructionTable(out, rows, p.subGroupSize);
  divergence(out, rows);
  memory(out, p);
  out += "</section>\n";
}

}  // namespace

std::string profileHtml(const std::vector<const LaunchProfile*>& launches,
                        SourceReader readSource) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>spvsim profile</title>\n";
  out += kStyle;
  out += "</head>\n<body>\n<h1>spvsim profile</h1>\n";
  for (size_t i = 0; i < launches.size(); ++i) launch(out, *launches[i], i, readSource);
  out += kScript;
  return out + "</body>\n</html>\n";
}

}  // namespace spvsim::profile
