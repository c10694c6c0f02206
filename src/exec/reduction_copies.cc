// Which buffers a launch privatises, and the host threads' copies of them
// (src/exec/reduction_copies.h).
#include "src/exec/reduction_copies.h"

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

// buffer[i] = combine(buffer[i], copy[i]) where the copy changed element i: one host
// atomic per element, as the kernel's atomics were, so that a launch running at the
// same time on another queue still sees each update whole (src/exec/ops/atomic.cc).
template <class T>
void foldInto(uint8_t* buffer, const uint8_t* copy, uint64_t bytes, ReductionOp op) {
  const T id = reductionIdentity<T>(op);
  for (uint64_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
    T c;
    std::memcpy(&c, copy + i, sizeof(T));
    if (c == id) continue;
    uint8_t* at = buffer + i;
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

}  // namespace

std::vector<PrivatisedRegion> privatisedRegions(const LoweredKernel& kernel,
                                                const std::vector<ArgBinding>& args,
                                                const std::vector<std::vector<uint8_t>>& params,
                                                const MemoryMap& mem, bool canPrivatise) {
  std::vector<PrivatisedRegion> out;
  if (!canPrivatise || !mem.svm.empty()) return out;
  for (const ArgBinding& a : args)
    if (a.kind == ArgBinding::Kind::SvmPointer) return out;
  for (const ReductionTarget& t : kernel.reductions) {
    if (t.param >= args.size() || args[t.param].kind != ArgBinding::Kind::Buffer) continue;
    const uint64_t p = pointerParam(params[t.param]);
    if (pointerSpace(p) != Space::Global || pointerOffset(p) != 0) continue;
    const uint64_t r = pointerRegion(p);
    if (r == 0 || r >= mem.global.size()) continue;
    const Region& region = mem.global[r];
    if (!region.readable || !region.writable || region.hostRestricted || !region.base ||
        region.size > kMaxPrivatisedBytes || sharesMemory(mem, r))
      continue;
    out.push_back({r, t.op, t.bytes, region.base, region.size});
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

void ReductionCopies::fold(std::mutex& lock) {
  for (size_t i = 0; i < regions_.size(); ++i) {
    if (!copies_[i]) continue;
    const PrivatisedRegion& r = regions_[i];
    {
      std::lock_guard<std::mutex> hold(lock);
      if (r.bytes == 4)
        foldInto<uint32_t>(r.base, reinterpret_cast<uint8_t*>(copies_[i].get()), r.size, r.op);
      else
        foldInto<uint64_t>(r.base, reinterpret_cast<uint8_t*>(copies_[i].get()), r.size, r.op);
    }
    copies_[i].reset();
  }
}

}  // namespace spvsim
