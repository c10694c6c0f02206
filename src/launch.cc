#include "src/launch.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>

#include "spirv/error.h"
#include "src/builtins.h"
#include "src/lowering.h"
#include "src/ops/shadow_memory.h"

namespace spvsim {
namespace {

[[noreturn]] void invalid(const std::string& message) { throw Error("invalid-argument", message); }

NDRange checkRange(const spirv::EntryPoint& ep, NDRange r) {
  if (r.dims < 1 || r.dims > 3) invalid(fmt::format("work dimension {} is not 1, 2 or 3", r.dims));
  for (uint32_t d = r.dims; d < 3; ++d) {
    r.global[d] = 1;
    r.offset[d] = 0;
    r.local[d] = 1;
  }
  for (uint32_t d = 0; d < r.dims; ++d)
    if (r.global[d] == 0) invalid(fmt::format("global size in dimension {} is 0", d));
  auto reqd = ep.findMode(spv::ExecutionMode::LocalSize);
  if (!r.localGiven) r.local = chooseLocalSize(ep, r);
  uint64_t product = 1;
  for (uint32_t d = 0; d < 3; ++d) {
    if (r.local[d] == 0) invalid(fmt::format("local size in dimension {} is 0", d));
    if (reqd && r.local[d] != reqd->literals.at(d))
      invalid(
          fmt::format("kernel {} requires work-group size {},{},{} "
                      "(reqd_work_group_size)",
                      ep.name, reqd->literals[0], reqd->literals[1], reqd->literals[2]));
    product *= r.local[d];
    if (product > kMaxWorkGroupSize)
      invalid(fmt::format("work-group size exceeds the maximum of {}", kMaxWorkGroupSize));
  }
  return r;
}

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Binds arguments: regions for buffers and local memory, one register value per
// parameter.

BoundArgs bindArgs(const spirv::Module& m, const spirv::EntryPoint& ep, const LoweredKernel& k,
                   const std::vector<ArgBinding>& args, MemoryMap& mem) {
  if (args.size() != ep.params.size())
    invalid(fmt::format("kernel {} takes {} argument(s), {} given", ep.name, ep.params.size(),
                        args.size()));
  BoundArgs bound;
  bound.paramValues.resize(args.size());
  bound.byValBytes.resize(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const spirv::KernelParam& p = ep.params[i];
    const ArgBinding& a = args[i];
    auto name = fmt::format("argument {} ({} {})", i, p.typeName, p.name);
    uint64_t ptr = 0;
    if (p.byValStruct) {
      uint64_t size = m.type(m.type(p.type).element).size;
      if (a.kind != ArgBinding::Kind::Value || a.value.size() != size)
        invalid(fmt::format("{} is a struct passed by value: needs {} bytes", name, size));
      bound.byValBytes[i] = a.value;
      ptr = makePointer(Space::Private, k.paramByValRegion[i], 0);
    } else if (p.isPointer) {
      using AS = spirv::AddressSpace;
      switch (a.kind) {
        case ArgBinding::Kind::Buffer: {
          if (p.addressSpace == AS::Local)
            invalid(fmt::format("{} is a local pointer: pass local memory, not a buffer", name));
          if (p.addressSpace == AS::Private)
            invalid(
                fmt::format("{} is a private pointer, which a kernel argument cannot be", name));
          bool constant = p.addressSpace == AS::Constant;
          auto& table = constant ? mem.constant : mem.global;
          // Constant memory is read-only. A `const` global pointer (NoWrite) still
          // points at writable memory (other arguments may alias it), so it stays writable.
          table.push_back(
              Region{a.data, 0, a.size, !constant, fmt::format("argument {} ({})", i, p.name)});
          ptr = makePointer(constant ? Space::Constant : Space::Global, table.size() - 1, 0);
          break;
        }
        case ArgBinding::Kind::Local: {
          if (p.addressSpace != AS::Local)
            invalid(fmt::format("{} is not a local pointer: pass a buffer", name));
          if (a.localBytes == 0) invalid(fmt::format("{}: local memory size is 0", name));
          mem.localArenaBytes = (mem.localArenaBytes + 127) / 128 * 128;
          mem.local.push_back(Region{nullptr, mem.localArenaBytes, a.localBytes, true,
                                     fmt::format("argument {} ({})", i, p.name)});
          mem.localArenaBytes += a.localBytes;
          ptr = makePointer(Space::Local, mem.local.size() - 1, 0);
          break;
        }
        case ArgBinding::Kind::Null:
          if (p.addressSpace == AS::Local)
            invalid(fmt::format("{}: local pointer cannot be NULL", name));
          break;
        case ArgBinding::Kind::Value:
          invalid(fmt::format("{} is a pointer: pass a buffer{}", name,
                              p.addressSpace == AS::Local ? " or local memory" : ""));
      }
    } else {
      uint64_t size = m.type(p.type).size;
      if (a.kind != ArgBinding::Kind::Value)
        invalid(fmt::format("{} is a value, not a pointer", name));
      if (a.value.size() != size)
        invalid(fmt::format("{} needs {} bytes, {} given", name, size, a.value.size()));
      bound.paramValues[i] = a.value;
      continue;
    }
    bound.paramValues[i].resize(8);
    std::memcpy(bound.paramValues[i].data(), &ptr, 8);
  }
  return bound;
}

}  // namespace

LaunchState::LaunchState(Program& program, const std::string& kernel, const NDRange& requested,
                         const std::vector<ArgBinding>& args, const LaunchOptions& options) {
  const spirv::EntryPoint& ep = program.entryPoint(kernel);
  const uint32_t width = program.subGroupSizeFor(kernel, options.subGroupSize);
  range_ = checkRange(ep, requested);
  const LoweredKernel& k = program.lowered(kernel, width);

  for (auto& g : program.globalVariables())
    mem_.global.push_back(Region{g.storage.data(), 0, g.storage.size(), true,
                                 "program variable " + program.module().nameOf(g.id)});
  for (auto& c : program.constantVariables())
    mem_.constant.push_back(Region{const_cast<uint8_t*>(c.storage.data()), 0, c.storage.size(),
                                   false, "program constant " + program.module().nameOf(c.id)});
  mem_.local = k.localRegions;
  mem_.localArenaBytes = k.localBytes;
  mem_.priv = k.privateRegions;
  mem_.privateArenaBytes = (k.privateBytes + 15) / 16 * 16;
  bound_ = bindArgs(program.module(), ep, k, args, mem_);

  ctx_.module = &program.module();
  ctx_.kernel = &k;
  ctx_.memory = &mem_;
  ctx_.kernelName = kernel;
  ctx_.dims = range_.dims;
  ctx_.globalSize = range_.global;
  ctx_.globalOffset = range_.offset;
  ctx_.enqueuedLocal = range_.local;
  for (int d = 0; d < 3; ++d) ctx_.numGroups[d] = ceilDiv(range_.global[d], range_.local[d]);
  ctx_.instructionBudget = options.instructionBudget;
  ctx_.quantum = std::max<uint64_t>(1, options.quantum);
  ctx_.schedule = options.schedule;
  ctx_.scheduleSeed = options.scheduleSeed;
  ctx_.checkUninitialized = options.checkUninitialized;
  if (options.checkRaces) {
    races_ = std::make_unique<RaceChecker>(ctx_);
    ctx_.races = races_.get();
  }

  groups_ = ctx_.numGroups[0] * ctx_.numGroups[1] * ctx_.numGroups[2];
  maxSubGroups_ = ceilDiv(range_.local[0] * range_.local[1] * range_.local[2], width);
}

std::array<uint64_t, 3> LaunchState::groupId(uint64_t g) const {
  const auto& n = ctx_.numGroups;
  return {g % n[0], (g / n[0]) % n[1], g / (n[0] * n[1])};
}

WorkGroupSlot::WorkGroupSlot(const LaunchState& launch) : launch_(launch) {
  const LoweredKernel& k = launch.kernel();
  const MemoryMap& mem = launch.memory();
  const uint64_t copies = launch.context().checkUninitialized ? 2 : 1;
  const size_t maxSubGroups = launch.maxSubGroups();
  regStorage_.assign(size_t(k.registerBytes) * maxSubGroups + 64, 0);
  privStride_ = mem.privateArenaBytes * copies;
  privStorage_.assign(size_t(privStride_) * k.width * maxSubGroups + 8, 0);
  local_.assign(mem.localArenaBytes * copies + 8, 0);
  sgs_.resize(maxSubGroups);
  const LoweredFunction& entry = k.functions[0];
  const BoundArgs& args = launch.args();
  for (size_t i = 0; i < maxSubGroups; ++i) {
    uint8_t* regs = regsFor(i);
    for (const auto& init : k.inits)
      for (uint32_t l = 0; l < k.width; ++l)
        std::memcpy(regs + init.reg + l * init.value.size(), init.value.data(), init.value.size());
    for (size_t p = 0; p < entry.paramRegs.size(); ++p) {
      const auto& v = args.paramValues[p];
      for (uint32_t l = 0; l < k.width; ++l)
        std::memcpy(regs + entry.paramRegs[p] + l * v.size(), v.data(), v.size());
    }
  }
}

uint8_t* WorkGroupSlot::regsFor(size_t i) {
  uintptr_t base = reinterpret_cast<uintptr_t>(regStorage_.data());
  base = (base + 63) / 64 * 64;
  return reinterpret_cast<uint8_t*>(base) + i * launch_.kernel().registerBytes;
}

void WorkGroupSlot::start(uint64_t g, std::vector<Diagnostic>* diagnostics, std::string* printf) {
  const LaunchContext& ctx = launch_.context();
  const NDRange& range = launch_.range();
  const uint32_t width = launch_.subGroupSize();
  wg_ = WorkGroupContext{};
  wg_.launch = &ctx;
  wg_.linearId = g;
  wg_.groupId = launch_.groupId(g);
  for (int d = 0; d < 3; ++d)
    wg_.localSize[d] = std::min(range.local[d], range.global[d] - wg_.groupId[d] * range.local[d]);
  wg_.localArena = local_.data();
  std::memset(local_.data(), 0, local_.size());
  wg_.diagnostics = diagnostics;
  wg_.printf = printf;
  const uint64_t items = wg_.localSize[0] * wg_.localSize[1] * wg_.localSize[2];
  count_ = ceilDiv(items, width);
  for (size_t i = 0; i < count_; ++i) {
    SubGroup& sg = sgs_[i];
    sg.regs = regsFor(i);
    sg.width = width;
    sg.id = static_cast<uint32_t>(i);
    sg.firstLocalLinear = static_cast<uint32_t>(i * width);
    sg.liveLanes = static_cast<uint32_t>(std::min<uint64_t>(width, items - i * width));
    sg.privateBytes = privStride_;
    sg.priv = privStorage_.data() + i * width * privStride_;
    sg.wg = &wg_;
    sg.yieldRequested = false;
    startSubGroup(sg);
  }
  if (RaceChecker* races = ctx.races) races->beginWorkGroup(wg_);
}

void WorkGroupSlot::finish() {
  if (RaceChecker* races = launch_.context().races) races->endWorkGroup();
}

void WorkGroupSlot::startSubGroup(SubGroup& sg) {
  const LoweredKernel& k = launch_.kernel();
  const MemoryMap& mem = launch_.memory();
  const BoundArgs& args = launch_.args();
  sg.code = k.code.data();
  sg.extra = k.extra.data();
  sg.live = LaneMask::firstN(sg.liveLanes);
  sg.simt.assign(1, SimtEntry{k.functions[0].entryPc, kNoPc, sg.live});
  sg.frames.assign(1, Frame{0, 0, 0});
  sg.pc = k.functions[0].entryPc;
  sg.setMask(sg.live);
  sg.state = SubGroupState::Running;
  sg.steps = sg.laneSteps = 0;
  // Arenas are reused across work-groups: clear them so that a kernel reading private
  // memory it never wrote sees the same zeros whatever ran before on this host thread.
  std::memset(sg.priv, 0, size_t(sg.width) * sg.privateBytes);
  writeBuiltins(sg, k);
  if (sg.wg->launch->checkUninitialized) markStartState(sg, k);
  for (uint32_t l = 0; l < sg.liveLanes; ++l) {
    uint8_t* lane = sg.priv + l * sg.privateBytes;
    for (const auto& [region, bytes] : k.privateInits)
      std::memcpy(lane + mem.priv[region].arenaOffset, bytes.data(), bytes.size());
    for (size_t p = 0; p < args.byValBytes.size(); ++p)
      if (!args.byValBytes[p].empty())
        std::memcpy(lane + mem.priv[k.paramByValRegion[p]].arenaOffset, args.byValBytes[p].data(),
                    args.byValBytes[p].size());
  }
}

}  // namespace spvsim
