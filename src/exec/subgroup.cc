#include "src/exec/subgroup.h"

#include <fmt/core.h>

#include <cstring>

namespace spvsim {

void SubGroup::report(const Inst& in, DiagnosticKind kind, std::string message,
                      const LaneMask& lanes, Severity severity) {
  auto key = std::make_pair(kind, in.src);
  if (auto it = wg->seen.find(key); it != wg->seen.end()) {
    ++(*wg->diagnostics)[it->second].repeats;
    return;
  }
  const LaunchContext& launch = *wg->launch;
  Diagnostic d;
  d.severity = severity;
  d.kind = kind;
  d.message = std::move(message);
  d.kernel = launch.kernelName;
  d.workGroup = wg->groupId;
  d.subGroup = id;
  d.lanes = lanes.lanes();
  const LoweredKernel& k = *launch.kernel;
  d.instruction = k.instructionText(in.src);
  d.line = k.instructionLine(in.src);
  d.order = {wg->linearId, (uint64_t(id) << 8) | (lanes.any() ? lanes.first() : 0)};
  wg->seen[key] = wg->diagnostics->size();
  wg->diagnostics->push_back(std::move(d));
}

void SubGroup::notify(const MemoryAccess& access) {
  const MemoryMap& mem = *wg->launch->memory;
  MemoryAccess a = access;
  a.pointer = mem.canonical(a.pointer);
  a.source = mem.canonical(a.source);
  wg->observers.each([&](ExecutionObserver& o) { o.access(*this, a); });
}

SubGroup::FastAccess SubGroup::observedRun(const uint64_t* ptrs, uint64_t bytes, bool write,
                                           uint32_t align, RegShape shape, Space s) {
  if (wg->launch->referenceTier || !(wg->observers.spaces & spaceBit(s)) || width < 2) return {};
  const LaneAddresses lanes =
      affineOrUniform(shape) ? affineLanes(ptrs, width, bytes) : classifyLanes(ptrs, width, bytes);
  // Contiguous lanes cannot overlap; lanes storing to one address would be reported
  // against each other, in lane order with their values in memory: lane by lane.
  if (lanes.pattern != LanePattern::Contiguous &&
      !(lanes.pattern == LanePattern::Uniform && !write))
    return {};
  const FastAccess fast = regionSpanning(lanes, s, bytes, write, align, width, lanes.lo);
  if (!fast) return {};
  const MemoryAccess first{write ? AccessKind::Write : AccessKind::Read, 0,
                           wg->launch->memory->canonical(ptrs[0]), fast.at(ptrs[0]), bytes};
  const uint64_t stride = lanes.pattern == LanePattern::Contiguous ? bytes : 0;
  wg->observers.each([&](ExecutionObserver& o) { o.accessRun(*this, first, stride, width); });
  return fast;
}

void SubGroup::fatal(const Inst& in, DiagnosticKind kind, std::string message) {
  report(in, kind, std::move(message), mask);
  wg->aborted = true;
  state = SubGroupState::Done;
}

static const char* accessVerb(bool write) { return write ? "write" : "read"; }

void SubGroup::reportAccess(const Inst& in, AccessError error, const LaneMask& lanes,
                            const uint64_t* ptrs, uint64_t bytes, bool write) {
  const uint64_t p = ptrs ? ptrs[lanes.first()] : 0;
  const std::string where = describePlace(*wg->launch->memory, p);
  switch (error) {
    case AccessError::Null:
      report(in, DiagnosticKind::OutOfBounds,
             fmt::format("{} of {} bytes through a null pointer", accessVerb(write), bytes), lanes);
      break;
    case AccessError::ReadOnly:  // memory that is read-only by nature (constant memory)
      report(in, DiagnosticKind::OutOfBounds,
             fmt::format("write of {} bytes to read-only memory {}", bytes, where), lanes);
      break;
    case AccessError::Misaligned:
      report(in, DiagnosticKind::MisalignedAccess,
             fmt::format("misaligned {} of {} bytes {}", accessVerb(write), bytes, where), lanes);
      break;
    default:
      report(in, DiagnosticKind::OutOfBounds,
             fmt::format("{} of {} bytes {}", accessVerb(write), bytes, where), lanes);
      break;
  }
}

void SubGroup::reportForbiddenByFlags(const Inst& in, uint32_t lane, uint64_t p, uint64_t bytes,
                                      bool write) {
  const LoweredKernel& k = *wg->launch->kernel;
  if (!write && k.readsBack(in.src)) return;  // the compiler's read, not the kernel's
  WorkGroupContext::ForbiddenAccessExecution& last = wg->lastForbidden;
  const auto key = std::make_pair(DiagnosticKind::AccessViolation, in.src);
  if (auto it = wg->seen.find(key); it != wg->seen.end()) {
    Diagnostic& d = (*wg->diagnostics)[it->second];
    // Another lane of the execution that made the diagnostic joins its lanes.
    if (last.diagnostic == it->second && last.subGroup == id && last.step == steps &&
        (d.lanes.empty() || d.lanes.back() < lane))
      d.lanes.push_back(lane);
    else
      ++d.repeats;
    return;
  }
  const std::string where = describePlace(*wg->launch->memory, p);
  std::string message =
      write ? fmt::format(
                  "write of {} bytes to a read-only buffer (CL_MEM_READ_ONLY, .sim ro) {}; "
                  "performed, as a device would",
                  bytes, where)
            : fmt::format(
                  "read of {} bytes from a write-only buffer (CL_MEM_WRITE_ONLY, .sim wo) "
                  "{}; performed, as a device would",
                  bytes, where);
  LaneMask one;
  one.set(lane);
  report(in, DiagnosticKind::AccessViolation, std::move(message), one);
  last = {wg->seen.at(key), id, steps};
}

void SubGroup::takeEdge(uint32_t edge, const LaneMask& lanes) {
  const uint32_t* e = extra + edge;
  const uint32_t count = e[1];
  if (count == 0) return;
  const uint32_t* c = e + 2;
  const bool all = lanes == LaneMask::firstN(width);
  for (uint32_t k = 0; k < count; ++k, c += 3) {
    const uint32_t dst = c[0], src = c[1], bytes = c[2] & ~kCopyKeepsShape;
    // A phi register is written only by its copies: it has the shape of what the last
    // one copied into every lane (src/exec/register_shape.h).
    if (c[2] & kCopyKeepsShape)
      shapes[shapeSlot(dst)] = all && width > 1 ? shapes[shapeSlot(src)] : 0;
    if (all) {
      // Registers are disjoint (or one: a phi of itself copies nothing); the common sizes,
      // 16 lanes of 4 or 8 bytes, inline.
      const size_t size = size_t(bytes) * width;
      if (dst == src) continue;
      if (size == 64)
        std::memcpy(regs + dst, regs + src, 64);
      else if (size == 128)
        std::memcpy(regs + dst, regs + src, 128);
      else
        std::memcpy(regs + dst, regs + src, size);
    } else {
      lanes.forEach(
          [&](uint32_t l) { std::memcpy(regs + dst + l * bytes, regs + src + l * bytes, bytes); });
    }
  }
}

void SubGroup::popToReconvergence() {
  simt.pop_back();
  const SimtEntry& top = simt.back();
  pc = top.pc;
  setMask(top.mask);
}

void SubGroup::jump(uint32_t targetPc) {
  pc = targetPc;
  if (pc == simt.back().rpc) popToReconvergence();
}

void SubGroup::diverge(const uint32_t* targets, const LaneMask* masks, uint32_t count,
                       uint32_t reconvergePc) {
  if (randomReconvergence) [[unlikely]]
    return divergeRandomly(targets, masks, count, reconvergePc);
  pushDivergence(targets, masks, count, reconvergePc);
}

void SubGroup::pushDivergence(const uint32_t* targets, const LaneMask* masks, uint32_t count,
                              uint32_t reconvergePc) {
  SimtEntry& top = simt.back();
  // Lanes already waiting for `reconvergePc` in the entry below need no new entry:
  // this keeps the stack bounded in loops that diverge on every iteration.
  if (top.rpc == reconvergePc)
    simt.pop_back();
  else
    top.pc = reconvergePc;
  for (uint32_t k = count; k-- > 0;)
    if (targets[k] != reconvergePc && masks[k].any())
      simt.push_back({targets[k], reconvergePc, masks[k]});
  const SimtEntry& next = simt.back();
  pc = next.pc;
  setMask(next.mask);
}

}  // namespace spvsim
