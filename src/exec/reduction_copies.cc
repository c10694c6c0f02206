// Which buffers a launch privatises, and the host threads' copies of them
// (src/exec/reduction_copies.h).
#include "src/exec/reduction_copies.h"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace spvsim {
namespace {

bool overlaps(const uint8_t* a, uint64_t aSize, const uint8_t* b, uint64_t bSize) {
  return a && b && a < b + bSize && b < a + aSize;
}

// Whether any region of the launch other than global region `r` shares bytes with it.
bool sharesMemory(const MemoryMap& mem, uint64_t r) {
  const Region& target = mem.global[r];
  for (const auto* table : {&mem.global, &mem.constant})
    for (size_t i = 1; i < table->size(); ++i)
      if (!(table == &mem.global && i == r) &&
          overlaps(target.base, target.size, (*table)[i].base, (*table)[i].size))
        return true;
  return false;
}

uint64_t pointerParam(const std::vector<uint8_t>& bytes) {
  uint64_t p = 0;
  if (bytes.size() == 8) std::memcpy(&p, bytes.data(), 8);
  return p;
}

template <class T>
void fill(uint8_t* to, uint64_t bytes, ReductionOp op) {
  const T id = reductionIdentity<T>(op);
  for (uint64_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) std::memcpy(to + i, &id, sizeof(T));
}

// buffer[i] = combine(buffer[i], acc[i]) where acc[i] is not the identity: one host
// atomic per element, as the kernel's atomics were, so that a launch running at the same
// time on another queue still sees each update whole (src/exec/ops/atomic.cc).
template <class T>
void combineInto(uint8_t* buffer, const std::vector<T>& acc, ReductionOp op) {
  const T id = reductionIdentity<T>(op);
  for (size_t e = 0; e < acc.size(); ++e) {
    const T c = acc[e];
    if (c == id) continue;
    uint8_t* at = buffer + e * sizeof(T);
    if (reinterpret_cast<uintptr_t>(at) % std::atomic_ref<T>::required_alignment) {
      T b;  // a host buffer with an odd base: plain, as the kernel's atomics there
      std::memcpy(&b, at, sizeof(T));
      b = reductionCombine(op, b, c);
      std::memcpy(at, &b, sizeof(T));
      continue;
    }
    std::atomic_ref<T> a(*reinterpret_cast<T*>(at));
    T old = a.load(std::memory_order_relaxed);
    while (!a.compare_exchange_weak(old, reductionCombine(op, old, c))) {
    }
  }
}

// Bytes [from, to) of region i: the copies combined element by element, then the buffer.
template <class T>
void foldRange(const PrivatisedRegion& r, size_t i,
               const std::vector<std::unique_ptr<ReductionCopies>>& copies, uint64_t from,
               uint64_t to) {
  std::vector<T> acc((to - from) / sizeof(T), reductionIdentity<T>(r.op));
  for (const auto& c : copies) {
    const uint8_t* copy = c ? c->made(i) : nullptr;
    if (!copy) continue;
    for (size_t e = 0; e < acc.size(); ++e) {
      T v;
      std::memcpy(&v, copy + from + e * sizeof(T), sizeof(T));
      acc[e] = reductionCombine(r.op, acc[e], v);
    }
  }
  combineInto(r.base + from, acc, r.op);
}

// Whether the launch has SVM: raw pointers, which the analyses of the kernel's parameters
// do not follow.
bool hasSvm(const std::vector<ArgBinding>& args, const MemoryMap& mem) {
  return !mem.svm.empty() || std::any_of(args.begin(), args.end(), [](const ArgBinding& a) {
    return a.kind == ArgBinding::Kind::SvmPointer;
  });
}

}  // namespace

std::vector<PrivatisedRegion> privatisedRegions(
    const LoweredKernel& kernel, const std::vector<ArgBinding>& args,
    const std::vector<std::vector<uint8_t>>& params, const MemoryMap& mem,
    const std::function<bool(const ReductionTarget&, const Region&)>& allowed) {
  std::vector<PrivatisedRegion> out;
  if (hasSvm(args, mem)) return out;
  for (const ReductionTarget& t : kernel.reductions) {
    if (t.param >= args.size() || args[t.param].kind != ArgBinding::Kind::Buffer) continue;
    const uint64_t p = pointerParam(params[t.param]);
    if (pointerSpace(p) != Space::Global || pointerOffset(p) != 0) continue;
    const uint64_t r = pointerRegion(p);
    if (r == 0 || r >= mem.global.size()) continue;
    const Region& region = mem.global[r];
    if (!region.readable || !region.writable || region.hostRestricted() || !region.base ||
        region.size > kMaxPrivatisedBytes || sharesMemory(mem, r) || !allowed(t, region))
      continue;
    out.push_back({r, t.op, t.bytes, region.base, region.size});
  }
  return out;
}

std::vector<uint8_t> readOnlyRegions(const LoweredKernel& kernel,
                                     const std::vector<ArgBinding>& args,
                                     const std::vector<std::vector<uint8_t>>& params,
                                     const MemoryMap& mem) {
  std::vector<uint8_t> out(mem.global.size(), 0);
  if (hasSvm(args, mem)) return out;
  for (size_t k = 0; k < args.size() && k < params.size() && k < 64; ++k) {
    if (args[k].kind != ArgBinding::Kind::Buffer || (kernel.writtenParams >> k & 1)) continue;
    const uint64_t p = pointerParam(params[k]);
    const uint64_t r = pointerRegion(p);
    if (pointerSpace(p) == Space::Global && r != 0 && r < out.size() && !sharesMemory(mem, r))
      out[r] = 1;
  }
  return out;
}

ReductionCopies::ReductionCopies(const std::vector<PrivatisedRegion>& regions)
    : regions_(regions), copies_(regions.size()) {}

uint8_t* ReductionCopies::make(size_t i) {
  const PrivatisedRegion& r = regions_[i];
  copies_[i].reset(new uint64_t[(r.size + 7) / 8]);
  uint8_t* c = reinterpret_cast<uint8_t*>(copies_[i].get());
  if (r.bytes == 4)
    fill<uint32_t>(c, r.size, r.op);
  else
    fill<uint64_t>(c, r.size, r.op);
  return c;
}

void foldCopies(const std::vector<PrivatisedRegion>& regions,
                const std::vector<std::unique_ptr<ReductionCopies>>& copies, unsigned slice,
                unsigned slices) {
  for (size_t i = 0; i < regions.size(); ++i) {
    const PrivatisedRegion& r = regions[i];
    const uint64_t elements = r.size / r.bytes;
    const uint64_t blocks = (elements * r.bytes + 63) / 64;
    const uint64_t from = std::min(elements * r.bytes, blocks * slice / slices * 64);
    const uint64_t to = std::min(elements * r.bytes, blocks * (slice + 1) / slices * 64);
    if (from >= to) continue;
    if (r.bytes == 4)
      foldRange<uint32_t>(r, i, copies, from, to);
    else
      foldRange<uint64_t>(r, i, copies, from, to);
  }
}

unsigned foldSlices(const std::vector<PrivatisedRegion>& regions,
                    const std::vector<std::unique_ptr<ReductionCopies>>& copies, unsigned threads) {
  uint64_t bytes = 0;
  for (size_t i = 0; i < regions.size(); ++i)
    for (const auto& c : copies)
      if (c && c->made(i)) bytes += regions[i].size;
  return unsigned(std::clamp<uint64_t>(bytes / kFoldSliceBytes, 1, std::max(threads, 1u)));
}

}  // namespace spvsim
