#include "src/exec/launch.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "spirv/error.h"
#include "spirv/text.h"
#include "src/exec/arg_check.h"
#include "src/exec/builtins.h"
#include "src/exec/image_format.h"
#include "src/exec/lowering.h"
#include "src/exec/ndrange_check.h"
#include "src/exec/program.h"
#include "src/exec/resident_groups.h"

namespace spvsim {
namespace {

[[noreturn]] void invalid(const std::string& message) {
  throw Error(DiagnosticKind::InvalidArgument, message);
}

// A buffer or local-memory argument's region; its size must be one object's.
void checkObjectSize(const std::string& name, uint64_t bytes) {
  if (bytes > kMaxObjectBytes)
    invalid(
        fmt::format("{}: {} bytes is more than the largest object spvsim places ({} bytes, "
                    "128 GiB)",
                    name, bytes, kMaxObjectBytes));
}

// The pointer value of a pointer parameter, adding the region it points at (the argument
// has passed validateArguments).
uint64_t bindPointer(const spirv::ParamSignature& p, const ArgBinding& a, MemoryMap& mem) {
  const std::string region = spirv::escapeText(p.label());
  switch (a.kind) {
    case ArgBinding::Kind::Buffer: {
      if (p.addressSpace == spirv::AddressSpace::Private)
        invalid(fmt::format("{} is a private pointer, which a kernel argument cannot be", region));
      checkObjectSize(region, a.size);
      const bool constant = p.kind == spirv::ParamKind::ConstantPointer;
      auto& table = constant ? mem.constant : mem.global;
      // Constant memory is read-only. A `const` global pointer (NoWrite) still
      // points at writable memory (other arguments may alias it), so it stays writable.
      table.push_back(Region{a.data, 0, a.size, !constant && a.writable, region});
      // The creation flags (CL_MEM_READ_ONLY / WRITE_ONLY, .sim ro / wo): a kernel access
      // they forbid is undefined behaviour, reported and then performed where it happens
      // (SubGroup::locate); only such an access leaves the fast paths.
      table.back().readable = a.readable;
      table.back().writeForbiddenByFlags = !constant && !a.writable;
      table.back().readForbiddenByFlags = !a.readable;
      table.back().uninitialized = a.uninitialized;
      return makePointer(constant ? Space::Constant : Space::Global, table.size() - 1);
    }
    case ArgBinding::Kind::SvmPointer:  // the raw address (src/exec/svm.h)
      return a.svmAddress();
    case ArgBinding::Kind::Local: {
      checkObjectSize(region, a.localBytes);
      mem.localArenaBytes = (mem.localArenaBytes + 127) / 128 * 128;
      mem.local.push_back(Region{nullptr, mem.localArenaBytes, a.localBytes, true, region});
      mem.localArenaBytes += a.localBytes;
      return makePointer(Space::Local, mem.local.size() - 1);
    }
    default:  // Null
      return 0;
  }
}

// Bytes an image's pixels span with its pitches (filled in), or nullopt on overflow.
std::optional<uint64_t> imageExtent(const ImageDesc& d, uint32_t bpp) {
  const bool twoD = d.type == ImageType::Image2D || d.type == ImageType::Image2DArray ||
                    d.type == ImageType::Image3D;
  const uint64_t rows = twoD ? d.height : 1;
  const uint64_t slices = d.type == ImageType::Image3D ? d.depth
                          : isArrayed(d.type)          ? d.arraySize
                                                       : 1;
  if (d.width > kMaxObjectBytes || rows > kMaxObjectBytes || slices > kMaxObjectBytes)
    return std::nullopt;
  const unsigned __int128 last = (unsigned __int128)(slices - 1) * d.slicePitch +
                                 (unsigned __int128)(rows - 1) * d.rowPitch +
                                 (unsigned __int128)d.width * bpp;
  if (last > kMaxObjectBytes) return std::nullopt;
  return static_cast<uint64_t>(last);
}

// Fills in zero pitches (the tightly packed layout the OpenCL API assumes for them).
ImageDesc withPitches(ImageDesc d, uint32_t bpp) {
  if (d.rowPitch == 0) d.rowPitch = d.width * bpp;
  if (d.slicePitch == 0)
    d.slicePitch = d.type == ImageType::Image1DArray ? d.rowPitch : d.rowPitch * d.height;
  return d;
}

// An image argument: its pixels become a global region (read-only for read_only
// images), its register value a handle into the launch's image table.
uint64_t bindImage(const spirv::Module& m, const spirv::ParamSignature& p, const ArgBinding& a,
                   MemoryMap& mem, std::vector<LaunchImage>& images) {
  const std::string name = spirv::escapeText(p.label());
  const auto want = imageTypeOf(m.type(p.type));
  if (!want)
    throw Error(DiagnosticKind::Unsupported,
                fmt::format("{}: '{}' (depth and multisampled images are not supported)", name,
                            p.declaration()));
  const ImageDesc& d = a.image;
  if (d.type != *want)
    invalid(fmt::format("{} is {} but the argument is an {}", name, imageTypeName(*want),
                        imageTypeName(d.type)));
  const uint32_t bpp = imagefmt::bytesPerPixel(d.format);
  if (bpp == 0)
    invalid(
        fmt::format("{}: image format {} is not supported", name, imagefmt::formatName(d.format)));
  if (d.width == 0 || d.height == 0 || d.depth == 0 || d.arraySize == 0)
    invalid(fmt::format("{}: an image of {}x{}x{} pixels ({} layers)", name, d.width, d.height,
                        d.depth, d.arraySize));
  const ImageDesc full = withPitches(d, bpp);
  const auto extent = imageExtent(full, bpp);
  if (!extent || full.rowPitch < full.width * bpp || *extent > d.bytes || !d.data)
    invalid(
        fmt::format("{}: {} bytes of image data do not hold {}x{}x{} pixels of {} ({} layers; "
                    "row pitch {}, slice pitch {})",
                    name, d.bytes, d.width, d.height, d.depth, imagefmt::formatName(d.format),
                    d.arraySize, full.rowPitch, full.slicePitch));
  const bool writable = p.access != spirv::AccessQualifier::ReadOnly;
  mem.global.push_back(Region{d.data, 0, d.bytes, writable, name + " (image)"});
  images.push_back(LaunchImage{full, bpp, uint32_t(mem.global.size() - 1), p.access, name});
  return imagehandle::image(uint32_t(images.size() - 1));
}

uint64_t bindSampler(const spirv::ParamSignature& p, const SamplerDesc& s) {
  if (s.addressing < 0x1130 || s.addressing > 0x1134 || s.filter < 0x1140 || s.filter > 0x1141)
    invalid(
        fmt::format("{}: sampler addressing mode {:#x} / filter mode {:#x} is not an OpenCL "
                    "one",
                    spirv::escapeText(p.label()), s.addressing, s.filter));
  return samplerbits::encode(s);
}

std::vector<uint8_t> pointerBytes(uint64_t p) {
  std::vector<uint8_t> bytes(8);
  std::memcpy(bytes.data(), &p, 8);
  return bytes;
}

// Binds arguments: regions for buffers and local memory, one register value per
// parameter. Throws ArgumentError for arguments that do not fit the signature.
BoundArgs bindArgs(const spirv::Module& m, const spirv::KernelSignature& sig,
                   const LoweredKernel& k, const std::vector<ArgBinding>& args, MemoryMap& mem) {
  validateArguments(sig, args);
  BoundArgs bound;
  bound.paramValues.resize(args.size());
  bound.byValBytes.resize(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const spirv::ParamSignature& p = sig.params[i];
    const ArgBinding& a = args[i];
    if (p.kind == spirv::ParamKind::ByValStruct) {
      bound.byValBytes[i] = a.value;
      bound.paramValues[i] = pointerBytes(makePointer(Space::Private, k.paramByValRegion[i]));
    } else if (p.isPointer()) {
      bound.paramValues[i] = pointerBytes(bindPointer(p, a, mem));
    } else if (p.kind == spirv::ParamKind::Image) {
      bound.paramValues[i] = pointerBytes(bindImage(m, p, a, mem, bound.images));
    } else if (p.kind == spirv::ParamKind::Sampler) {
      bound.paramValues[i] = pointerBytes(bindSampler(p, a.sampler));
    } else if (p.kind == spirv::ParamKind::Pipe) {
      bound.pipes.push_back(a.pipe);  // the pipe value is its handle (src/exec/pipe.h)
      bound.paramValues[i] = pointerBytes(bound.pipes.size());
    } else {
      bound.paramValues[i] = a.value;
    }
  }
  return bound;
}

}  // namespace

LaunchState::LaunchState(Program& program, const KernelHandle& kernel, const NDRange& requested,
                         const std::vector<ArgBinding>& args, const LaunchOptions& options,
                         DeviceEnqueueState* enqueue, const InheritedMemory* inherited)
    : maxMemory_(options.maxMemory), argumentBytes_(options.argumentMemory) {
  const spirv::EntryPoint& ep = kernel.entryPoint();
  const uint32_t width = program.subGroupSizeFor(kernel, options.subGroupSize);
  range_ = checkRange(ep, requested);
  const LoweredKernel& k = program.lowered(kernel, width);

  const spirv::Module& m = program.module();
  if (inherited) {  // the parent's tables start with the program's variables too
    mem_.global = inherited->global;
    mem_.constant = inherited->constant;
    // The parent may have written never-initialised buffers: a child sees them as initialised.
    for (auto* table : {&mem_.global, &mem_.constant})
      for (Region& r : *table) r.uninitialized = false;
  } else {
    for (auto& g : program.globalVariables())
      mem_.global.push_back(Region{g.storage.data(), 0, g.storage.size(), true,
                                   "program variable " + m.nameOf(g.id)});
    for (auto& c : program.constantVariables())
      mem_.constant.push_back(Region{const_cast<uint8_t*>(c.storage.data()), 0, c.storage.size(),
                                     false, "program constant " + m.nameOf(c.id)});
  }
  mem_.local = k.localRegions;
  mem_.localArenaBytes = k.localBytes;
  bindSvmAllocations(options.svm, mem_);
  mem_.priv = k.privateRegions;
  mem_.privateArenaBytes = privateArenaBytes(k);
  bound_ = bindArgs(program.module(), kernel.signature(), k, args, mem_);
  checkRegionCounts();
  if (m.addressing == spv::AddressingModel::Physical32) setUp32BitAddresses(ep);

  ctx_.module = &m;
  ctx_.kernel = &k;
  ctx_.memory = &mem_;
  ctx_.images = bound_.images.data();
  ctx_.imageCount = static_cast<uint32_t>(bound_.images.size());
  ctx_.kernelName = kernel.name();
  ctx_.dims = range_.dims;
  ctx_.globalSize = range_.global;
  ctx_.globalOffset = range_.offset;
  ctx_.enqueuedLocal = range_.local;
  for (int d = 0; d < 3; ++d) ctx_.numGroups[d] = ceilDiv(range_.global[d], range_.local[d]);
  ctx_.instructionBudget = options.instructionBudget;
  ctx_.quantum = std::max<uint64_t>(1, options.quantum);
  ctx_.schedule = options.schedule;
  ctx_.scheduleSeed = options.scheduleSeed;
  ctx_.pipes = bound_.pipes;
  ctx_.enqueue = enqueue;
  observers_ = options.observers;
  for (const auto& f : observers_) {
    serial_ = serial_ || f->serial();
    if (f->mirrorsArenas()) ctx_.arenaMirrors.push_back(f.get());
    ctx_.shadowRegisters = ctx_.shadowRegisters || f->shadowsRegisters();
    ctx_.builtinStorage = ctx_.builtinStorage || f->readsBuiltinsAsMemory();
  }
  ctx_.builtinStorage = ctx_.builtinStorage || options.builtinStorage;
  // The relaxed model must see every access: the Reference tier. Its drain order is
  // one stream of choices over the launch: one host thread, work-groups in order.
  if (options.memoryModel == LaunchOptions::MemoryModel::Relaxed) {
    // Untested together: the store buffers' drains at a work-group's end and the resident
    // work-groups' turns (src/exec/resident_groups.h) would have to agree.
    if (options.forwardProgress == LaunchOptions::ForwardProgress::Occupancy)
      throw Error(DiagnosticKind::Unsupported,
                  "the relaxed memory model under --forward-progress occupancy is not "
                  "supported: use one of them");
    relaxed_ = std::make_unique<RelaxedMemory>(options.memoryModelSeed);
    ctx_.relaxed = relaxed_.get();
    serial_ = true;
  }
  ctx_.referenceTier = options.tier == LaunchOptions::Tier::Reference || relaxed_ != nullptr;
  ctx_.randomReconvergence = options.reconvergence == LaunchOptions::Reconvergence::Random;
  ctx_.reconvergenceSeed = options.reconvergenceSeed;
  ctx_.fastPaths = !ctx_.referenceTier && observers_.empty() && !ctx_.shadowRegisters;
  // Observers see each atomic on the buffer, but where every one of them lets the target
  // bypass it (the checkers, on atomics they would judge nothing on); shadow registers
  // are the undefined-value checker's, which says so for them.
  privatised_ = privatisedRegions(
      k, args, bound_.paramValues, mem_, [&](const ReductionTarget& t, const Region& r) {
        return !ctx_.referenceTier &&
               std::all_of(observers_.begin(), observers_.end(),
                           [&](const auto& f) { return f->letsReductionBypass(ctx_, t, r); });
      });
  if (!observers_.empty()) ctx_.readOnlyGlobal = readOnlyRegions(k, args, bound_.paramValues, mem_);
  if (!observers_.empty() && !ctx_.referenceTier) {
    ctx_.unwatchedGlobal.assign(mem_.global.size(), 1);
    for (const auto& f : observers_)
      if (f->spaces(ctx_) & spaceBit(Space::Global))
        for (uint64_t r = 0; r < mem_.global.size(); ++r)
          if (f->watchesGlobalRegion(ctx_, r)) ctx_.unwatchedGlobal[r] = 0;
  }
  // checkRange bounds both products.
  groups_ = ctx_.numGroups[0] * ctx_.numGroups[1] * ctx_.numGroups[2];
  maxSubGroups_ = ceilDiv(range_.local[0] * range_.local[1] * range_.local[2], width);
  fixedBytes_ = argumentBytes_;
  if (options.forwardProgress == LaunchOptions::ForwardProgress::Occupancy)
    residentGroups_ = residentGroupCount(options);
  ctx_.residentGroups = residentGroups_;
  // Before instrument(), which may allocate what stateBytes counts. A serial observer
  // has one state per resident work-group's slot (src/exec/resident_groups.h), unless
  // its factory shares one among them (takesResidentGroups: stateBytes counts it all).
  for (const auto& f : observers_)
    if (const uint64_t bytes = f->stateBytes(ctx_)) {
      const uint64_t states =
          f->serial() && !f->takesResidentGroups() ? std::max<uint64_t>(residentGroups_, 1) : 1;
      fixedBytes_ = addBytes(fixedBytes_, mulBytes(bytes, states));
      checkMemory(fixedBytes_, maxMemory_, f->stateName() + " for this launch" + besideArguments());
    }
  for (const auto& f : observers_)
    if (auto instrumented = f->instrument(ctx_)) {
      // Each instrumenting observer's handlers find their rules by casting the launch's
      // kernel to its own type: a second one would make the first's casts wrong.
      if (instrumented_)
        throw Error(DiagnosticKind::Internal,
                    "two of this launch's observers rewrite its kernel (a profile, "
                    "--check-undefined, spvsim check's reconvergence trace): run them in "
                    "separate launches");
      instrumented_ = std::move(instrumented);
      ctx_.kernel = instrumented_.get();
    }
  slotBytes_ = computeSlotBytes();
  chargePrivatisedCopies();
  reserved_ = fixedBytes_;
  ctx_.observerMemory = maxMemory_ - std::min(maxMemory_, addBytes(fixedBytes_, slotBytes_));
  for (const auto& f : observers_)
    if (auto shared = f->launchState(ctx_)) {
      ctx_.launchStates.push_back({f.get(), shared.get()});
      observerStates_.push_back(std::move(shared));
    }
  ctx_.splitGroups = splitsGroups(options);
  if (ctx_.splitGroups) unitsPerGroup_ = maxSubGroups_;
}

// Below this many work-groups, a launch whose sub-groups may run apart runs them apart:
// guided scheduling balances threads only with several units per thread, and the one
// slow core of a VM then sets the launch time (nbody: 16 groups on 16 threads). Not the
// thread count: what runs as a unit must not change with it (the order of a work-group's
// diagnostics, the instruction budget's scope).
constexpr uint64_t kSplitBelowGroups = 256;

// Whether each sub-group runs as a unit: nothing in the kernel ties a work-group's
// sub-groups (LoweredKernel::subGroupsIndependent), no local memory, no printf (its
// output is in work-group order), nothing that watches the work-group as one (observers)
// or asks for an interleaving of its sub-groups (a random schedule, a quantum of one's
// own) or of its work-groups (--forward-progress occupancy).
bool LaunchState::splitsGroups(const LaunchOptions& options) const {
  const LoweredKernel& k = kernel();
  return k.subGroupsIndependent && !k.usesPrintf && mem_.localArenaBytes == 0 && ctx_.fastPaths &&
         privatised_.empty() && bound_.pipes.empty() &&
         options.schedule == LaunchOptions::Schedule::RoundRobin &&
         options.quantum == LaunchOptions{}.quantum && residentGroups_ == 0 && maxSubGroups_ > 1 &&
         groups_ < kSplitBelowGroups;
}

// Each host thread may hold a copy of every privatised buffer: counted in its slot's
// bytes, or no privatisation where one slot would then not fit the memory limit (the
// launch runs as it would without, rather than failing).
void LaunchState::chargePrivatisedCopies() {
  uint64_t copies = 0;
  for (const PrivatisedRegion& r : privatised_) copies = addBytes(copies, (r.size + 7) / 8 * 8);
  if (addBytes(fixedBytes_, addBytes(slotBytes_, copies)) > maxMemory_)
    privatised_.clear();
  else
    slotBytes_ = addBytes(slotBytes_, copies);
}

// Region indices must fit the pointers' 21-bit region field (src/exec/memory.h).
void LaunchState::checkRegionCounts() const {
  for (Space s : {Space::Global, Space::Constant, Space::Local, Space::Private})
    if (mem_.regions(s).size() > kMaxRegions)
      throw Error(DiagnosticKind::Unsupported,
                  fmt::format("the launch has {} {} memory objects; spvsim "
                              "places at most 2^21 - 1 per address space",
                              mem_.regions(s).size() - 1, spaceName(s)));
}

// A 32-bit device's get_global_id is a 32-bit size_t: the range must fit it, or ids
// would wrap. Device-side enqueue is refused at lowering (src/exec/ops/device_enqueue.cc),
// so a launch never inherits a parent's regions here.
void LaunchState::setUp32BitAddresses(const spirv::EntryPoint& ep) {
  for (uint32_t d = 0; d < range_.dims; ++d)
    if (range_.offset[d] + range_.global[d] > (uint64_t(1) << 32))  // checkRange: no overflow
      throw Error(DiagnosticKind::InvalidArgument,
                  fmt::format("kernel {} is a Physical32 module, whose size_t is 32 bits: "
                              "global offset {} + global size {} in dimension {} exceeds 2^32",
                              spirv::escapeText(ep.name, spirv::kQuotedNameBytes), range_.offset[d],
                              range_.global[d], d));
  addresses32_ = address32MapOf(mem_);
  mem_.addresses32 = &addresses32_;
}

// What WorkGroupSlot allocates, saturating (a sum that cannot be allocated anyway).
uint64_t slotBytesFor(const LoweredKernel& k, uint64_t maxSubGroups, uint64_t privateArenaBytes,
                      uint64_t localArenaBytes, uint64_t copies, bool shadowRegisters) {
  const uint64_t lanes = mulBytes(k.width, maxSubGroups);
  const uint64_t registerCopies = shadowRegisters ? 2 : 1;
  uint64_t bytes = addBytes(mulBytes(mulBytes(k.registerBytes, registerCopies), maxSubGroups), 64);
  bytes = addBytes(bytes, mulBytes(k.initialShapes.size(), maxSubGroups));
  bytes = addBytes(bytes, addBytes(mulBytes(mulBytes(privateArenaBytes, copies), lanes), 8));
  bytes = addBytes(bytes, addBytes(mulBytes(localArenaBytes, copies), 8));
  return addBytes(bytes, mulBytes(sizeof(SubGroup), maxSubGroups));
}

uint64_t LaunchState::computeSlotBytes() const {
  uint64_t bytes =
      slotBytesFor(kernel(), maxSubGroups_, mem_.privateArenaBytes, mem_.localArenaBytes,
                   1 + ctx_.arenaMirrors.size(), ctx_.shadowRegisters);
  for (const auto& f : observers_) bytes = addBytes(bytes, f->slotStateBytes(ctx_));
  return bytes;
}

std::string LaunchState::describeSlot() const {
  return fmt::format(
      "a work-group of {} work-items (private memory {} per work-item, local memory {}, "
      "registers {} per sub-group{}){}",
      range_.local[0] * range_.local[1] * range_.local[2], formatBytes(mem_.privateArenaBytes),
      formatBytes(mem_.localArenaBytes), formatBytes(kernel().registerBytes),
      ctx_.arenaMirrors.empty()
          ? ""
          : fmt::format("; private and local memory {} times for checkers' per-byte state",
                        1 + ctx_.arenaMirrors.size()),
      besideArguments());
}

std::string LaunchState::besideArguments() const {
  return argumentBytes_
             ? fmt::format(" beside the {} of argument buffers", formatBytes(argumentBytes_))
             : "";
}

uint64_t LaunchState::slotsThatFit() const {
  if (maxMemory_ < fixedBytes_ || slotBytes_ == 0) return 0;
  return (maxMemory_ - fixedBytes_) / slotBytes_;
}

void LaunchState::reserveSlot() const {
  uint64_t held = reserved_.load();
  while (addBytes(held, slotBytes_) <= maxMemory_)
    if (reserved_.compare_exchange_weak(held, held + slotBytes_)) return;
  checkMemory(addBytes(fixedBytes_, slotBytes_), maxMemory_, describeSlot());
  checkMemory(addBytes(held, slotBytes_), maxMemory_,
              fmt::format("holding one more work-group's memory at once ({} each)",
                          formatBytes(slotBytes_)));
}

std::array<uint64_t, 3> LaunchState::groupId(uint64_t g) const {
  const auto& n = ctx_.numGroups;
  return {g % n[0], (g / n[0]) % n[1], g / (n[0] * n[1])};
}

WorkGroupSlot::WorkGroupSlot(const LaunchState& launch, WorkerArena* arena)
    : launch_(launch), reservation_(launch) {
  const LoweredKernel& k = launch.kernel();
  const MemoryMap& mem = launch.memory();
  const size_t maxSubGroups = launch.maxSubGroups();
  if (!arena) arena = (ownArena_ = std::make_unique<WorkerArena>()).get();
  carveStorage(*arena);
  setClearedBytes();
  builtinsInMemory_ = launch.context().builtinStorage ||
                      std::any_of(k.builtins.begin(), k.builtins.end(),
                                  [](const BuiltinSlot& slot) { return slot.inMemory; });
  for (const auto& [region, bytes] : k.privateInits)
    laneInits_.push_back({mem.priv[region].arenaOffset, &bytes});
  for (size_t p = 0; p < launch.args().byValBytes.size(); ++p)
    if (!launch.args().byValBytes[p].empty())
      laneInits_.push_back(
          {mem.priv[k.paramByValRegion[p]].arenaOffset, &launch.args().byValBytes[p]});
  sgs_.resize(maxSubGroups);
  shapeStorage_.resize(k.initialShapes.size() * maxSubGroups);
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
  for (const auto& f : launch.observers()) {
    spaces_ |= f->spaces(launch.context());
    // Raw SVM addresses (Space::Invalid) are global memory: resolve() reports them too.
    if (spaces_ & spaceBit(Space::Global)) spaces_ |= spaceBit(Space::Invalid);
    observers_.push_back(f->create(launch.context()));
    observerList_.push_back(observers_.back().get());
  }
  for (ExecutionObserver* o : observerList_) o->launchBegin(launch.context());
}

// One block, each part 64-byte aligned; the private and local arenas keep 8 spare bytes
// as they always had (an 8-byte access at a region's last byte stays inside the block).
void WorkGroupSlot::carveStorage(WorkerArena& arena) {
  const LoweredKernel& k = launch_.kernel();
  const MemoryMap& mem = launch_.memory();
  const uint64_t copies = 1 + launch_.context().arenaMirrors.size();
  const size_t maxSubGroups = launch_.maxSubGroups();
  auto round = [](size_t n) { return (n + 63) / 64 * 64; };
  const size_t regBytes = size_t(k.registerBytes) * maxSubGroups;
  const size_t shadowBytes = launch_.context().shadowRegisters ? regBytes : 0;
  privStride_ = mem.privateArenaBytes * copies;
  const size_t privBytes = size_t(privStride_) * k.width * maxSubGroups + 8;
  localBytes_ = mem.localArenaBytes * copies + 8;
  const size_t shadowAt = round(regBytes), privAt = shadowAt + round(shadowBytes);
  const size_t localAt = privAt + round(privBytes);
  uint8_t* block = arena.take(localAt + localBytes_);
  regStorage_ = block;
  shadowStorage_ = shadowBytes ? block + shadowAt : nullptr;
  privStorage_ = block + privAt;
  local_ = block + localAt;
}

WorkGroupSlot::~WorkGroupSlot() {
  for (ExecutionObserver* o : observerList_) o->launchEnd();
}

// What each lane's arena needs cleared at sub-group start: every region but the built-ins
// only built-in reads use (BuiltinSlot::inMemory false), which nothing reads or writes
// (region bounds keep other pointers out) unless LaunchContext::builtinStorage; with arena
// mirrors, the same regions in each mirror after the arena (their shadows start cleared).
void WorkGroupSlot::setClearedBytes() {
  const LoweredKernel& k = launch_.kernel();
  const MemoryMap& mem = launch_.memory();
  std::vector<bool> skip(mem.priv.size(), false);
  if (!launch_.context().builtinStorage)
    for (const BuiltinSlot& slot : k.builtins) skip[slot.region] = !slot.inMemory;
  clearFrom_ = privStride_, clearTo_ = 0;
  for (size_t r = 1; r < mem.priv.size(); ++r)
    if (!skip[r] && mem.priv[r].size) {
      clearFrom_ = std::min(clearFrom_, mem.priv[r].arenaOffset);
      clearTo_ = std::max(clearTo_, mem.priv[r].arenaOffset + mem.priv[r].size);
    }
  if (clearTo_ > clearFrom_)
    clearTo_ += launch_.context().arenaMirrors.size() * mem.privateArenaBytes;
}

uint8_t* WorkGroupSlot::regsFor(size_t i) {
  return regStorage_ + i * launch_.kernel().registerBytes;
}

namespace {

// Moves local id `id` on by `n` work-items in linear order (x fastest).
void stepLocalId(uint64_t* id, const uint64_t* size, uint64_t n) {
  id[0] += n;
  while (id[0] >= size[0]) {
    id[0] -= size[0];
    if (++id[1] == size[1]) id[1] = 0, ++id[2];
  }
}

}  // namespace

void WorkGroupSlot::start(uint64_t g, std::vector<Diagnostic>* diagnostics, std::string* printf,
                          uint64_t only) {
  const LaunchContext& ctx = launch_.context();
  const NDRange& range = launch_.range();
  const uint32_t width = launch_.subGroupSize();
  wg_ = WorkGroupContext{};
  wg_.launch = &ctx;
  wg_.linearId = g;
  wg_.groupId = launch_.groupId(g);
  for (int d = 0; d < 3; ++d)
    wg_.localSize[d] = std::min(range.local[d], range.global[d] - wg_.groupId[d] * range.local[d]);
  wg_.localArena = local_;
  std::memset(local_, 0, localBytes_);
  wg_.diagnostics = diagnostics;
  wg_.printf = printf;
  wg_.reductions = reductions_;
  wg_.fuse = fuse_ && !ctx.referenceTier;
  wg_.fastPaths = ctx.fastPaths;
  wg_.checkedSpaces = ctx.referenceTier ? ~uint32_t(0) : spaces_;
  wg_.unwatchedGlobal = ctx.unwatchedGlobal.data();
  wg_.unwatchedGlobalCount = ctx.unwatchedGlobal.size();
  wg_.relaxed = ctx.relaxed;
  wg_.observers = Observers{observerList_.data(), uint32_t(observerList_.size()), spaces_};
  const uint64_t items = wg_.localSize[0] * wg_.localSize[1] * wg_.localSize[2];
  const uint64_t all = ceilDiv(items, width);
  const uint64_t first = only == kEverySubGroup ? 0 : only;
  count_ = only == kEverySubGroup ? all : only < all ? 1 : 0;
  // Sub-group id's first local id, counted up by width.
  const auto& size = wg_.localSize;
  uint64_t local[3] = {first * width % size[0], first * width / size[0] % size[1],
                       first * width / (size[0] * size[1])};
  for (size_t i = 0; i < count_; ++i, stepLocalId(local, wg_.localSize.data(), width)) {
    const uint64_t id = first + i;
    SubGroup& sg = sgs_[i];
    sg.regs = regsFor(i);
    sg.shapes = shapeStorage_.data() + i * launch_.kernel().initialShapes.size();
    sg.shapeGate = launch_.context().referenceTier ? 0 : 0xff;
    sg.shadow = shadowStorage_ ? shadowStorage_ + i * launch_.kernel().registerBytes : nullptr;
    sg.width = width;
    sg.id = static_cast<uint32_t>(id);
    sg.firstLocalLinear = static_cast<uint32_t>(id * width);
    for (int d = 0; d < 3; ++d) sg.firstLocalId[d] = static_cast<uint32_t>(local[d]);
    sg.liveLanes = static_cast<uint32_t>(std::min<uint64_t>(width, items - id * width));
    sg.privateBytes = privStride_;
    sg.priv = privStorage_ + i * width * privStride_;
    sg.wg = &wg_;
    for (const Space s : {Space::Global, Space::Constant, Space::Local}) {
      const std::vector<Region>& table = ctx.memory->regions(s);
      sg.regionTable[uint32_t(s)] = table.data();
      sg.regionCount[uint32_t(s)] = table.size();
    }
    sg.yieldRequested = false;
    sg.atomicsInTurn = 0;
    sg.fuseBefore = 0;  // runSteps sets it for its stretch
    startSubGroup(sg);
  }
  wg_.observers.each([&](ExecutionObserver& o) { o.workGroupBegin(wg_, sgs_.data(), count_); });
}

void WorkGroupSlot::finish() {
  if (!wg_.aborted && !wg_.unwaitedCopies.empty()) reportUnwaitedCopies(sgs_[0]);
  if (wg_.relaxed) wg_.relaxed->workGroupEnd(wg_);  // its local memory ends with it
  wg_.observers.each([&](ExecutionObserver& o) { o.workGroupEnd(wg_); });
}

void WorkGroupSlot::startSubGroup(SubGroup& sg) {
  const LoweredKernel& k = launch_.kernel();
  sg.code = k.code.data();
  sg.extra = k.extra.data();
  // Masks copied word by word (LaneMask::copyFrom) from a local: a 16-byte load of a mask
  // just written by two 8-byte stores waits for them to reach the cache.
  const LaneMask live = LaneMask::firstN(sg.liveLanes);
  sg.live.copyFrom(live);
  sg.simt.resize(1);
  sg.simt[0].pc = k.functions[0].entryPc;
  sg.simt[0].rpc = kNoPc;
  sg.simt[0].mask.copyFrom(live);
  sg.frames.assign(1, Frame{0, 0, 0});
  sg.pc = k.functions[0].entryPc;
  sg.setMask(live);
  sg.startReconvergence(*wg_.launch, wg_.linearId);
  sg.state = SubGroupState::Running;
  sg.steps = sg.laneSteps = sg.laneStepsMark = 0;
  // Registers keep the last work-group's values (each is written before it is read);
  // their shapes start over, so that a stale one never outlives its values.
  // In the Reference tier every shape stays Unknown (not even constants' and built-ins').
  if (sg.shapeGate)
    std::memcpy(sg.shapes, k.initialShapes.data(), k.initialShapes.size());
  else
    std::memset(sg.shapes, 0, k.initialShapes.size());
  // Arenas are reused across work-groups: clear them so that a kernel reading private
  // memory it never wrote sees the same zeros whatever ran before on this host thread.
  if (clearTo_ > clearFrom_)
    std::memset(sg.priv + clearFrom_, 0,
                size_t(sg.width - 1) * sg.privateBytes + clearTo_ - clearFrom_);
  if (builtinsInMemory_) writeBuiltins(sg, k, launch_.context().builtinStorage);
  if (laneInits_.empty()) return;
  for (uint32_t l = 0; l < sg.liveLanes; ++l) {
    uint8_t* lane = sg.priv + l * sg.privateBytes;
    for (const auto& [offset, bytes] : laneInits_)
      std::memcpy(lane + offset, bytes->data(), bytes->size());
  }
}

}  // namespace spvsim
