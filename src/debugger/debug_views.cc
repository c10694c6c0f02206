#include "src/debugger/debug_views.h"

#include <fmt/format.h>

#include <algorithm>

#include "spirv/error.h"
#include "src/exec/memory_model.h"
#include "src/files/input_file.h"
#include "src/values/text_util.h"

namespace spvsim::debugger {
namespace {

constexpr uint32_t kSourceContext = 5;  // lines before and after in `list`
constexpr uint32_t kCodeContext = 4;    // instructions before and after in `list`

std::string groupId(const std::array<uint64_t, 3>& id) {
  return fmt::format("({},{},{})", id[0], id[1], id[2]);
}

// The function's display name; clang's kernel wrapper has no OpName.
std::string functionLabel(const DebugSession& session, uint32_t function) {
  const Symbols& s = session.symbols();
  const std::string& name = s.functionName(function);
  if (function == 0 && !name.empty() && name[0] == '%')
    return fmt::format("{} (entry point of kernel {})", name, session.launch().kernel.name());
  return name;
}

std::string stateWord(SubGroupState s) {
  switch (s) {
    case SubGroupState::Running:
      return "running";
    case SubGroupState::AtBarrier:
      return "at barrier";
    case SubGroupState::Done:
      return "done";
  }
  return "?";
}

// A module without line information (built without -g) whose bundle carries the source the
// application compiled: `list FILE:N` shows the copy around line N, marking no line, since
// no instruction names one.
std::string copyListing(const files::SourceCopy& copy, std::string_view lineText) {
  uint64_t line = 0;
  if (!values::parseUnsigned(lineText, line) || line == 0)
    throw DebugError(fmt::format("'{}' is not a line number", lineText));
  std::string text;
  try {
    text = files::readInputFile(copy.path);
  } catch (const Error& e) {
    throw DebugError(fmt::format("{} cannot be read: {}", copy.shownAs, e.what()));
  }
  std::vector<std::string_view> lines;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    lines.push_back(std::string_view(text).substr(at, end - at));
    at = end + 1;
  }
  if (line > lines.size())
    throw DebugError(fmt::format("{} has {} lines", copy.shownAs, lines.size()));
  std::string out = fmt::format(
      "{} (as the bundle carries it; the module has no line information, so no line is "
      "current):\n",
      copy.shownAs);
  const uint64_t first = line > kSourceContext ? line - kSourceContext : 1;
  const uint64_t last = std::min<uint64_t>(line + kSourceContext, lines.size());
  for (uint64_t l = first; l <= last; ++l) out += fmt::format("   {:>4}  {}\n", l, lines[l - 1]);
  return out;
}

// What `list` adds where the module has no line information but the bundle has its source.
std::string copiesHint(const Symbols& s) {
  const files::SourceCopy* program = s.sourceCopies().program();
  if (s.hasLineInfo() || !program) return "";
  return fmt::format(
      "(the application built this module without -g: the bundle carries its source, "
      "`list {}:1` shows it)\n",
      program->shownAs);
}

std::string sourceListing(const Symbols& s, const spirv::SourceLine& at) {
  const std::vector<std::string>& lines = s.sourceLines(at.file);
  if (lines.empty()) return fmt::format("(source file {} cannot be read)\n", s.filePath(at.file));
  std::string out;
  const uint32_t first = at.line > kSourceContext ? at.line - kSourceContext : 1;
  const uint32_t last = std::min<uint32_t>(at.line + kSourceContext, lines.size());
  for (uint32_t l = first; l <= last; ++l)
    out += fmt::format("{} {:>4}  {}\n", l == at.line ? "=>" : "  ", l, lines[l - 1]);
  return out;
}

// The instructions around `pc` in its function (fix-up parts of one instruction once).
std::string codeListing(const Symbols& s, uint32_t pc) {
  const LoweredFunction& f = s.kernel().functions[s.functionAt(pc)];
  const auto& code = s.kernel().code;
  auto head = [&](uint32_t p) { return p == f.entryPc || code[p - 1].src != code[p].src; };
  std::vector<uint32_t> before, after;
  for (uint32_t p = pc; p > f.entryPc && before.size() < kCodeContext;)
    if (head(--p)) before.push_back(p);
  for (uint32_t p = pc + 1; p <= f.exitPc && after.size() < kCodeContext; ++p)
    if (head(p)) after.push_back(p);
  std::reverse(before.begin(), before.end());
  before.push_back(pc);
  before.insert(before.end(), after.begin(), after.end());
  std::string out;
  for (uint32_t p : before)
    out += fmt::format("{} {:<12} {}\n", p == pc ? "=>" : "  ", s.where(p), s.instructionText(p));
  return out;
}

}  // namespace

std::string backtraceText(DebugSession& session) {
  const SubGroup& sg = session.subGroup();
  const Symbols& s = session.symbols();
  std::string out;
  for (size_t i = sg.frames.size(); i-- > 0;) {
    const size_t depth = sg.frames.size() - 1 - i;
    uint32_t pc = locationPc(sg);
    if (i + 1 < sg.frames.size()) {
      const uint32_t base = sg.frames[i + 1].simtBase;
      pc = base > 0 && base <= sg.simt.size() ? sg.simt[base - 1].pc - 1 : pc;
    }
    out += fmt::format("{}#{}  {} at {}\n", depth == session.frame() && depth ? "=>" : "", depth,
                       functionLabel(session, sg.frames[i].function), s.describe(pc));
  }
  return out;
}

std::string lineText(DebugSession& session) {
  const SubGroup& sg = session.subGroup();
  const Symbols& s = session.symbols();
  const uint32_t pc = locationPc(sg);
  const spirv::SourceLine line = s.lineAt(pc);
  if (!line)
    return fmt::format("No line information at `{}` (compile with -g).\n", s.instructionText(pc));
  return fmt::format("Line {} of \"{}\" in {}; sub-group {} is at `{}`.\n", line.line,
                     s.fileName(line.file), functionLabel(session, s.functionAt(pc)), sg.id,
                     s.instructionText(pc));
}

// The group the top entry runs against the set of lanes that diverged with it: those the
// entry waiting at its reconvergence point holds. Under --reconvergence random one side
// may run as several groups; under ipdom a group is a whole side.
template <class Place>
std::string divergedSetText(const SubGroup& sg, Place place) {
  const SimtEntry& top = sg.simt.back();
  if (top.rpc == kNoPc) return "";
  for (size_t i = sg.simt.size() - 1; i-- > 0;) {
    if (sg.simt[i].pc != top.rpc || sg.simt[i].rpc == top.rpc) continue;
    size_t waiting = 0;  // other groups of the set that run before it reconverges
    for (size_t j = i + 1; j + 1 < sg.simt.size(); ++j) waiting += sg.simt[j].rpc == top.rpc;
    return fmt::format(
        "Running lanes {} of the diverged lanes {}; {} other group{} of them "
        "run before they reconverge at {}\n",
        formatLaneList(sg.mask), formatLaneList(sg.simt[i].mask), waiting, waiting == 1 ? "" : "s",
        place(top.rpc));
  }
  return "";
}

std::string simtText(DebugSession& session) {
  const SubGroup& sg = session.subGroup();
  const Symbols& s = session.symbols();
  std::string out = fmt::format("SIMT stack of sub-group {}, {} entr{}, top (running) first:\n",
                                sg.id, sg.simt.size(), sg.simt.size() == 1 ? "y" : "ies");
  auto place = [&](uint32_t pc) {
    const std::string at = s.where(pc);
    return at.empty() ? s.instructionText(pc) : at;
  };
  for (size_t i = sg.simt.size(); i-- > 0;) {
    const SimtEntry& e = sg.simt[i];
    const bool top = i + 1 == sg.simt.size();
    const uint32_t pc = top ? locationPc(sg) : e.pc;
    const LaneMask lanes = top ? sg.mask : e.mask;
    size_t frame = 0;
    while (frame + 1 < sg.frames.size() && sg.frames[frame + 1].simtBase <= i) ++frame;
    out += fmt::format("  #{}  lanes {:<10} {} {}", i, formatLaneList(lanes),
                       top ? "at" : "resume at", s.describe(pc));
    if (e.rpc != kNoPc) out += "  -> reconverge at " + place(e.rpc);
    if (sg.frames.size() > 1) out += "  [in " + s.functionName(sg.frames[frame].function) + "]";
    out += '\n';
  }
  return out + divergedSetText(sg, place);
}

std::string storesText(DebugSession& session) {
  const RelaxedMemory* relaxed = session.launchState().relaxedMemory();
  if (!relaxed)
    return "no store buffers: the memory model is sequentially consistent (--memory-model "
           "relaxed buffers stores)\n";
  const std::vector<PendingStore>& pending = relaxed->pending();
  if (pending.empty()) return "no store waits in a store buffer: every store is in memory\n";
  std::string out = fmt::format(
      "{} store{} in store buffers, oldest first (only the work-item that made one sees it):\n",
      pending.size(), pending.size() == 1 ? " waits" : "s wait");
  for (const PendingStore& p : pending) {
    std::string bytes;
    for (uint8_t b : p.bytes) bytes += fmt::format("{}{:02x}", bytes.empty() ? "" : " ", b);
    out += fmt::format("  work-group {} local id {} (sub-group {}): {} {} byte{} at {}: {}\n",
                       p.group, p.item, p.subGroup, p.local ? "local" : "global", p.bytes.size(),
                       p.bytes.size() == 1 ? "" : "s", session.pointerName(p.pointer), bytes);
  }
  return out;
}

std::string subGroupsText(DebugSession& session) {
  GroupRun& g = session.group();
  if (!g.slot) return fmt::format("work-group {} has finished\n", groupId(g.id));
  const Symbols& s = session.symbols();
  std::string out = fmt::format("Sub-groups of work-group {}:\n", groupId(g.id));
  for (size_t i = 0; i < g.slot->count(); ++i) {
    const SubGroup& sg = g.slot->subGroups()[i];
    out += fmt::format("{} {:<3} {:<12}", i == session.subGroupIndex() ? "*" : " ", i,
                       stateWord(sg.state));
    if (sg.state != SubGroupState::Done)
      out += fmt::format("lanes {} active ({}/{})  {}", formatLaneList(sg.mask), sg.mask.count(),
                         sg.liveLanes, s.describe(locationPc(sg)));
    out += '\n';
  }
  return out;
}

std::string workGroupsText(DebugSession& session) {
  const LaunchState& state = session.launchState();
  std::string out = fmt::format("{} work-group{} in the launch; started:\n", state.groupCount(),
                                state.groupCount() == 1 ? "" : "s");
  for (const auto& [linear, g] : session.groups()) {
    std::string what = "finished";
    if (g->slot && !g->finished) {
      size_t done = 0, barrier = 0;
      for (size_t i = 0; i < g->slot->count(); ++i) {
        done += g->slot->subGroups()[i].state == SubGroupState::Done;
        barrier += g->slot->subGroups()[i].state == SubGroupState::AtBarrier;
      }
      what = fmt::format("running: {} sub-groups, {} at a barrier, {} done", g->slot->count(),
                         barrier, done);
    }
    out +=
        fmt::format("{} {}  {}\n", g.get() == &session.group() ? "*" : " ", groupId(g->id), what);
  }
  if (session.releasedGroups())
    out += fmt::format("  {} more finished (their state is released)\n", session.releasedGroups());
  const uint64_t left = state.groupCount() - session.groups().size() - session.releasedGroups();
  if (left) out += fmt::format("  {} not started yet\n", left);
  return out;
}

std::string breakpointsText(const DebugSession& session) {
  if (session.breakpoints().empty()) return "No breakpoints or watchpoints.\n";
  std::string out = "Num  Type        Hits  Where\n";
  for (const Breakpoint& b : session.breakpoints()) {
    std::string where = b.watch ? b.what : b.location.description;
    if (!b.watch && b.location.pcs.size() > 1)
      where += fmt::format(" ({} locations)", b.location.pcs.size());
    if (b.condition) where += " if " + b.condition->text();
    out += fmt::format("{:<4} {:<11} {:<5} {}\n", b.number, b.watch ? "watchpoint" : "breakpoint",
                       b.hits, where);
  }
  return out;
}

std::string listText(DebugSession& session, std::string_view location) {
  const Symbols& s = session.symbols();
  if (!s.hasLineInfo()) {
    const size_t colon = location.rfind(':');
    if (colon != std::string_view::npos)
      if (const files::SourceCopy* copy = s.sourceCopies().named(location.substr(0, colon)))
        return copyListing(*copy, location.substr(colon + 1));
  }
  uint32_t pc = 0;
  if (!location.empty()) {
    spirv::Id file = 0;
    if (session.hasSubGroups()) file = s.lineAt(locationPc(session.subGroup())).file;
    pc = s.resolve(location, file).pcs.at(0);
  } else {
    pc = locationPc(session.subGroup());
  }
  std::string out;
  if (const spirv::SourceLine at = s.lineAt(pc)) {
    out += fmt::format("{}:\n", s.fileName(at.file));
    out += sourceListing(s, at);
  } else {
    out += "(no source line here)\n" + copiesHint(s);
  }
  out += fmt::format("SPIR-V, function {}:\n", s.functionName(s.functionAt(pc)));
  return out + codeListing(s, pc);
}

std::string localsText(DebugSession& session, bool arguments) {
  SubGroup& sg = session.subGroup();
  const Symbols& s = session.symbols();
  const FrameScope frame = frameScope(sg, session.frame());
  const uint32_t function = frame.function;
  const std::vector<const ValueName*> names =
      arguments ? s.argumentNames(function, frame.src) : s.localNames(function, frame.src);
  if (names.empty())
    return fmt::format("No named {} in function {} (compile with -g).\n",
                       arguments ? "arguments" : "values", s.functionName(function));
  const ValueReader reader(s, sg, frame);
  std::string out;
  for (const ValueName* n : names) {
    ValueRef ref;
    ref.name = n->name;
    try {
      out += reader.format(reader.read(ref), std::nullopt, {},
                           [&](uint64_t p) { return session.pointerName(p); });
    } catch (const DebugError& e) {
      out += fmt::format("{}: {}", n->name, e.what());
    }
    out += '\n';
  }
  return out;
}

}  // namespace spvsim::debugger
