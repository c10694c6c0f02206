#include "src/program.h"

#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>

#include "spirv/error.h"
#include "src/builtins.h"
#include "src/lowering.h"
#include "src/ops/shadow_memory.h"
#include "src/workgroup.h"

namespace spvsim {

std::shared_ptr<Program> Program::load(std::vector<uint32_t> words,
                                       const spirv::LoadOptions& options) {
  return std::shared_ptr<Program>(new Program(spirv::loadModule(std::move(words), options)));
}

Program::Program(spirv::Module module) : module_(std::move(module)) {
  for (const auto& v : module_.globalVariables) {
    if (v.storage != spv::StorageClass::CrossWorkgroup &&
        v.storage != spv::StorageClass::UniformConstant)
      continue;
    const spirv::Type& pointee = module_.type(module_.type(v.type).element);
    ProgramVariable pv{v.id, std::vector<uint8_t>(pointee.size, 0)};
    if (v.initializer) pv.storage = module_.constants.at(v.initializer).bytes;
    (v.storage == spv::StorageClass::CrossWorkgroup ? globals_ : constants_)
        .push_back(std::move(pv));
  }
}

Program::~Program() = default;

const spirv::EntryPoint& Program::entryPoint(const std::string& kernel) const {
  if (const auto* ep = module_.findEntryPoint(kernel)) return *ep;
  std::string names;
  for (const auto& ep : module_.entryPoints) names += (names.empty() ? "" : ", ") + ep.name;
  throw Error("invalid-argument", fmt::format("no kernel named '{}' in the module (kernels: {})",
                                              kernel, names.empty() ? "none" : names));
}

uint32_t Program::subGroupSizeFor(const std::string& kernel, uint32_t requested) const {
  const auto& ep = entryPoint(kernel);
  if (const auto* m = ep.findMode(spv::ExecutionMode::SubgroupSize)) requested = m->literals.at(0);
  if (requested < 1 || requested > kMaxSubGroupSize)
    throw Error("invalid-argument",
                fmt::format("sub-group size {} is outside 1..{}", requested, kMaxSubGroupSize));
  return requested;
}

const LoweredKernel& Program::lowered(const std::string& kernel, uint32_t width) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = lowered_[{kernel, width}];
  if (!slot) {
    auto k = std::make_unique<LoweredKernel>();
    Lowerer(module_, entryPoint(kernel), width, *k).run();
    slot = std::move(k);
  }
  return *slot;
}

std::array<uint64_t, 3> chooseLocalSize(const spirv::EntryPoint& ep, const NDRange& range) {
  if (const auto* m = ep.findMode(spv::ExecutionMode::LocalSize))
    return {m->literals.at(0), m->literals.at(1), m->literals.at(2)};
  std::array<uint64_t, 3> local{1, 1, 1};
  uint64_t budget = 256;
  for (uint32_t d = 0; d < range.dims; ++d) {
    uint64_t best = 1;
    for (uint64_t c = std::min(range.global[d], budget); c >= 1; --c)
      if (range.global[d] % c == 0) {
        best = c;
        break;
      }
    local[d] = best;
    budget /= best;
  }
  return local;
}

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
struct BoundArgs {
  std::vector<std::vector<uint8_t>> paramValues;  // per parameter: one lane's bytes
  std::vector<std::vector<uint8_t>> byValBytes;   // per parameter (ByVal only)
};

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

// One host thread's storage, reused for every work-group it runs. With the
// uninitialised-read checker on, each lane's private arena and the local arena are twice
// their data size: the second half is the shadow (src/ops/shadow_memory.h).
struct Worker {
  std::vector<uint8_t> regStorage, privStorage, local;
  uint64_t privStride = 0;  // bytes per lane of privStorage
  std::vector<SubGroup> sgs;
  uint8_t* regsFor(size_t i, const LoweredKernel& k) {
    uintptr_t base = reinterpret_cast<uintptr_t>(regStorage.data());
    base = (base + 63) / 64 * 64;
    return reinterpret_cast<uint8_t*>(base) + i * k.registerBytes;
  }
};

struct GroupOutput {
  uint64_t linearId;
  std::vector<Diagnostic> diagnostics;
  std::string printf;
};

void prepareWorker(Worker& w, const LoweredKernel& k, const BoundArgs& args, size_t maxSubGroups,
                   const MemoryMap& mem, bool shadow) {
  const uint64_t copies = shadow ? 2 : 1;
  w.regStorage.assign(size_t(k.registerBytes) * maxSubGroups + 64, 0);
  w.privStride = mem.privateArenaBytes * copies;
  w.privStorage.assign(size_t(w.privStride) * k.width * maxSubGroups + 8, 0);
  w.local.assign(mem.localArenaBytes * copies + 8, 0);
  w.sgs.resize(maxSubGroups);
  const LoweredFunction& entry = k.functions[0];
  for (size_t i = 0; i < maxSubGroups; ++i) {
    uint8_t* regs = w.regsFor(i, k);
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

void startSubGroup(SubGroup& sg, const LoweredKernel& k, const BoundArgs& args,
                   const MemoryMap& mem) {
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

}  // namespace

LaunchResult Program::launch(const std::string& kernel, const NDRange& requested,
                             const std::vector<ArgBinding>& args, const LaunchOptions& options) {
  const spirv::EntryPoint& ep = entryPoint(kernel);
  const uint32_t width = subGroupSizeFor(kernel, options.subGroupSize);
  const NDRange range = checkRange(ep, requested);
  const LoweredKernel& k = lowered(kernel, width);

  MemoryMap mem;
  for (auto& g : globals_)
    mem.global.push_back(Region{g.storage.data(), 0, g.storage.size(), true,
                                "program variable " + module_.nameOf(g.id)});
  for (auto& c : constants_)
    mem.constant.push_back(Region{c.storage.data(), 0, c.storage.size(), false,
                                  "program constant " + module_.nameOf(c.id)});
  mem.local = k.localRegions;
  mem.localArenaBytes = k.localBytes;
  mem.priv = k.privateRegions;
  mem.privateArenaBytes = (k.privateBytes + 15) / 16 * 16;
  BoundArgs bound = bindArgs(module_, ep, k, args, mem);

  LaunchContext ctx;
  ctx.module = &module_;
  ctx.kernel = &k;
  ctx.memory = &mem;
  ctx.kernelName = kernel;
  ctx.dims = range.dims;
  ctx.globalSize = range.global;
  ctx.globalOffset = range.offset;
  ctx.enqueuedLocal = range.local;
  for (int d = 0; d < 3; ++d) ctx.numGroups[d] = ceilDiv(range.global[d], range.local[d]);
  ctx.instructionBudget = options.instructionBudget;
  ctx.quantum = std::max<uint64_t>(1, options.quantum);
  ctx.schedule = options.schedule;
  ctx.scheduleSeed = options.scheduleSeed;
  ctx.checkUninitialized = options.checkUninitialized;

  const uint64_t groups = ctx.numGroups[0] * ctx.numGroups[1] * ctx.numGroups[2];
  const uint64_t wgItems = range.local[0] * range.local[1] * range.local[2];
  const size_t maxSubGroups = ceilDiv(wgItems, width);
  unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  threads = static_cast<unsigned>(std::clamp<uint64_t>(threads, 1, groups));

  std::atomic<uint64_t> next{0}, steps{0}, laneSteps{0};
  std::atomic<bool> abort{false};
  std::atomic<uint64_t> firstAborted{~0ull};
  std::vector<std::vector<GroupOutput>> outputs(threads);
  auto work = [&](unsigned t) {
    Worker w;
    prepareWorker(w, k, bound, maxSubGroups, mem, ctx.checkUninitialized);
    uint64_t mySteps = 0, myLaneSteps = 0;
    for (uint64_t g; !abort.load(std::memory_order_relaxed) && (g = next++) < groups;) {
      GroupOutput out{g, {}, {}};
      WorkGroupContext wg;
      wg.launch = &ctx;
      wg.linearId = g;
      wg.groupId = {g % ctx.numGroups[0], (g / ctx.numGroups[0]) % ctx.numGroups[1],
                    g / (ctx.numGroups[0] * ctx.numGroups[1])};
      for (int d = 0; d < 3; ++d)
        wg.localSize[d] =
            std::min(range.local[d], range.global[d] - wg.groupId[d] * range.local[d]);
      wg.localArena = w.local.data();
      std::memset(w.local.data(), 0, w.local.size());
      wg.diagnostics = &out.diagnostics;
      wg.printf = &out.printf;
      const uint64_t items = wg.localSize[0] * wg.localSize[1] * wg.localSize[2];
      const size_t count = ceilDiv(items, width);
      for (size_t i = 0; i < count; ++i) {
        SubGroup& sg = w.sgs[i];
        sg.regs = w.regsFor(i, k);
        sg.width = width;
        sg.id = static_cast<uint32_t>(i);
        sg.firstLocalLinear = static_cast<uint32_t>(i * width);
        sg.liveLanes = static_cast<uint32_t>(std::min<uint64_t>(width, items - i * width));
        sg.privateBytes = w.privStride;
        sg.priv = w.privStorage.data() + i * width * w.privStride;
        sg.wg = &wg;
        startSubGroup(sg, k, bound, mem);
      }
      runWorkGroup(wg, w.sgs, count);
      for (size_t i = 0; i < count; ++i) {
        mySteps += w.sgs[i].steps;
        myLaneSteps += w.sgs[i].laneSteps;
      }
      if (wg.aborted) {
        abort = true;
        for (uint64_t cur = firstAborted; g < cur && !firstAborted.compare_exchange_weak(cur, g);) {
        }
      }
      if (!out.diagnostics.empty() || !out.printf.empty()) outputs[t].push_back(std::move(out));
    }
    steps += mySteps;
    laneSteps += myLaneSteps;
  };
  if (threads == 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work, t);
    for (auto& th : pool) th.join();
  }

  // Work-groups are taken in order, so every group before the first fatal one ran to
  // completion whatever the thread count; later ones are dropped for determinism.
  std::vector<GroupOutput> all;
  for (auto& v : outputs)
    for (auto& o : v)
      if (o.linearId <= firstAborted) all.push_back(std::move(o));
  std::sort(all.begin(), all.end(),
            [](const GroupOutput& a, const GroupOutput& b) { return a.linearId < b.linearId; });
  LaunchResult result;
  std::vector<Diagnostic> diags;
  for (auto& o : all) {
    result.printfOutput += o.printf;
    for (auto& d : o.diagnostics) diags.push_back(std::move(d));
  }
  result.diagnostics = foldDiagnostics(std::move(diags));
  result.subGroupSteps = steps;
  result.laneInstructions = laneSteps;
  result.range = range;
  result.subGroupSize = width;
  result.aborted = abort;
  return result;
}

}  // namespace spvsim
