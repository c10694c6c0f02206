#include "src/program.h"

#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>

#include "spirv/error.h"
#include "src/launch.h"
#include "src/lowering.h"
#include "src/relocations.h"
#include "src/workgroup.h"

namespace spvsim {

std::shared_ptr<Program> Program::load(std::vector<uint32_t> words,
                                       const spirv::LoadOptions& options) {
  return std::shared_ptr<Program>(new Program(spirv::loadModule(std::move(words), options)));
}

// A program-scope variable's initializer, with the addresses it holds filled in.
std::vector<uint8_t> Program::initialValue(const spirv::Variable& v) const {
  std::optional<spirv::Constant> c = module_.constantValue(v.initializer);
  if (!c)
    throw Error("invalid-module",
                fmt::format("the initializer of {} is not a constant", module_.nameOf(v.id)));
  return resolvedBytes(module_, *c,
                       [&](spirv::Id var) { return programVariablePointer(module_, var); });
}

Program::Program(spirv::Module module) : module_(std::move(module)) {
  for (const auto& v : module_.globalVariables) {
    if (v.storage != spv::StorageClass::CrossWorkgroup &&
        v.storage != spv::StorageClass::UniformConstant)
      continue;
    const spirv::Type& pointee = module_.type(module_.type(v.type).element);
    ProgramVariable pv{v.id, std::vector<uint8_t>(pointee.size, 0)};
    if (v.initializer) pv.storage = initialValue(v);
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

struct GroupOutput {
  uint64_t linearId;
  std::vector<Diagnostic> diagnostics;
  std::string printf;
};

}  // namespace

LaunchResult Program::launch(const std::string& kernel, const NDRange& requested,
                             const std::vector<ArgBinding>& args, const LaunchOptions& options) {
  LaunchState state(*this, kernel, requested, args, options);
  const uint64_t groups = state.groupCount();
  unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  if (state.races()) threads = 1;  // the checker's verdicts must not depend on timing
  threads = static_cast<unsigned>(std::clamp<uint64_t>(threads, 1, groups));

  std::atomic<uint64_t> next{0}, steps{0}, laneSteps{0};
  std::atomic<bool> abort{false};
  std::atomic<uint64_t> firstAborted{~0ull};
  std::vector<std::vector<GroupOutput>> outputs(threads);
  auto work = [&](unsigned t) {
    WorkGroupSlot slot(state);
    uint64_t mySteps = 0, myLaneSteps = 0;
    for (uint64_t g; !abort.load(std::memory_order_relaxed) && (g = next++) < groups;) {
      GroupOutput out{g, {}, {}};
      slot.start(g, &out.diagnostics, &out.printf);
      WorkGroupContext& wg = slot.workGroup();
      runWorkGroup(wg, slot.subGroups(), slot.count());
      slot.finish();
      for (size_t i = 0; i < slot.count(); ++i) {
        mySteps += slot.subGroups()[i].steps;
        myLaneSteps += slot.subGroups()[i].laneSteps;
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
  result.range = state.range();
  result.subGroupSize = state.subGroupSize();
  result.aborted = abort;
  return result;
}

}  // namespace spvsim
