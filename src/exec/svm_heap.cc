#include "src/exec/svm_heap.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace spvsim {
namespace {

uint64_t pageBytes() {
  const long p = sysconf(_SC_PAGE_SIZE);
  return p > 0 ? uint64_t(p) : 4096;
}

uint64_t roundUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

void* mapNone(void* hint, uint64_t bytes, int extra) {
  void* p =
      mmap(hint, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | extra, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

bool addressable(void* p, uint64_t bytes) {
  return p && svmAddressable(reinterpret_cast<uintptr_t>(p), bytes);
}

// `bytes` of reserved address space inside one half-window, or nullptr: where the kernel
// puts it, else at the start of a nearby half-window, else trimmed from a larger mapping.
uint8_t* reserveWindow(uint64_t bytes) {
  void* p = mapNone(nullptr, bytes, 0);
  if (!p) return nullptr;
  if (addressable(p, bytes)) return static_cast<uint8_t*>(p);
  munmap(p, bytes);
  const uint64_t k = reinterpret_cast<uintptr_t>(p) >> 40;
  for (uint64_t next : {k + 1, k - 1, k + 2, k - 2}) {
    void* hint = reinterpret_cast<void*>(next << 40);
    void* q = mapNone(hint, bytes, MAP_FIXED_NOREPLACE);
    if (q == hint && addressable(q, bytes)) return static_cast<uint8_t*>(q);
    if (q) munmap(q, bytes);
  }
  const uint64_t span = (uint64_t(1) << 40) + bytes;
  auto* big = static_cast<uint8_t*>(mapNone(nullptr, span, 0));
  if (!big) return nullptr;
  const uint64_t at = roundUp(reinterpret_cast<uintptr_t>(big), uint64_t(1) << 40);
  auto* start = reinterpret_cast<uint8_t*>(at);
  if (start > big) munmap(big, start - big);
  munmap(start + bytes, big + span - (start + bytes));
  return addressable(start, bytes) ? start : nullptr;
}

}  // namespace

SvmHeap::~SvmHeap() {
  if (window_) munmap(window_, windowBytes_);
}

bool SvmHeap::reserve() {
  if (window_) return true;
  for (uint64_t bits : {36, 34, 32, 30}) {
    if ((window_ = reserveWindow(uint64_t(1) << bits))) {
      windowBytes_ = uint64_t(1) << bits;
      free_[0] = windowBytes_;
      return true;
    }
  }
  return false;
}

// First fit of `bytes` at an `alignment`-aligned host address; the window offset, or
// windowBytes_ when nothing fits.
uint64_t SvmHeap::take(uint64_t bytes, uint64_t alignment) {
  const uint64_t origin = reinterpret_cast<uintptr_t>(window_);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const auto [off, len] = *it;
    const uint64_t start = roundUp(origin + off, alignment) - origin;
    if (start - off > len || bytes > len - (start - off)) continue;
    free_.erase(it);
    if (start > off) free_[off] = start - off;
    if (start + bytes < off + len) free_[start + bytes] = off + len - start - bytes;
    return start;
  }
  return windowBytes_;
}

uint8_t* SvmHeap::allocate(uint64_t size, uint64_t alignment, uint64_t flags) {
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t page = pageBytes();
  if (size == 0 || !reserve() || size > windowBytes_ || alignment > windowBytes_) return nullptr;
  const uint64_t used = roundUp(size, page);
  const uint64_t at = take(used + page, std::max(alignment, page));  // a guard page after
  if (at == windowBytes_) return nullptr;
  uint8_t* base = window_ + at;
  if (mprotect(base, used, PROT_READ | PROT_WRITE) != 0) {
    free_[at] = used + page;  // not coalesced: harmless, it is reused as it is
    return nullptr;
  }
  blocks_[reinterpret_cast<uintptr_t>(base)] = Block{base, size, flags, ++allocations_};
  return base;
}

bool SvmHeap::free(const void* p, std::optional<uint64_t> serial) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = blocks_.find(reinterpret_cast<uintptr_t>(p));
  if (it == blocks_.end() || (serial && it->second.serial != *serial)) return false;
  const uint64_t page = pageBytes();
  uint8_t* base = it->second.base;
  const uint64_t used = roundUp(it->second.size, page);
  madvise(base, used, MADV_DONTNEED);  // the next block here starts zeroed
  mprotect(base, used, PROT_NONE);
  blocks_.erase(it);
  uint64_t off = base - window_, len = used + page;
  auto next = free_.find(off + len);
  if (next != free_.end()) {
    len += next->second;
    free_.erase(next);
  }
  auto prev = free_.lower_bound(off);
  if (prev != free_.begin() && std::prev(prev)->first + std::prev(prev)->second == off) {
    --prev;
    prev->second += len;
  } else {
    free_[off] = len;
  }
  return true;
}

std::optional<SvmHeap::Block> SvmHeap::find(const void* p) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t v = reinterpret_cast<uintptr_t>(p);
  auto it = blocks_.upper_bound(v);
  if (it == blocks_.begin()) return std::nullopt;
  --it;
  if (v >= it->first + it->second.size) return std::nullopt;
  return it->second;
}

SvmHeap::Placement SvmHeap::place(const void* p, uint64_t size) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return placeLocked(reinterpret_cast<uintptr_t>(p), size);
}

SvmHeap::Placement SvmHeap::placeLocked(uint64_t address, uint64_t size) const {
  if (size > UINT64_MAX - address) return Placement::Stray;
  const uint64_t end = address + size;
  const uint64_t lo = reinterpret_cast<uintptr_t>(window_), hi = lo + windowBytes_;
  // Without a window (nothing allocated yet) lo == hi: every range is elsewhere.
  if (address >= hi || (address < lo && end <= lo)) return Placement::Elsewhere;
  auto it = blocks_.upper_bound(address);  // the first block above `address`
  if (it == blocks_.begin()) return Placement::Stray;
  --it;
  // A block's end never touches the next block's base (a guard page lies between), so
  // the block at or below `address` is the only one that can hold the range.
  return end <= it->first + it->second.size ? Placement::InBlock : Placement::Stray;
}

bool SvmHeap::whilePlaced(std::initializer_list<Range> ranges,
                          const std::function<void()>& use) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Range& r : ranges)
    if (placeLocked(reinterpret_cast<uintptr_t>(r.p), r.size) == Placement::Stray) return false;
  use();
  return true;
}

std::vector<SvmAllocation> SvmHeap::allocations() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<SvmAllocation> out;
  out.reserve(blocks_.size());
  for (const auto& [address, b] : blocks_) {
    char name[64];
    snprintf(name, sizeof name, "SVM allocation 0x%llx", static_cast<unsigned long long>(address));
    out.push_back(SvmAllocation{b.base, b.size, name});
  }
  return out;
}

}  // namespace spvsim
