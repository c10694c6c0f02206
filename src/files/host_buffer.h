// Host storage for a launch's buffers: byte vectors of megabytes that the launch, the
// initialisers and the dumps each go over. On Linux the kernel backs anonymous memory
// with 4 KiB pages unless asked: a fresh 16 MiB buffer then costs 4096 page faults when
// it is first written, and every pass over it a TLB miss per 4 KiB, which on a virtual
// machine (nested page tables) costs more than the bytes' bandwidth. HostBytes' storage
// of kHugePageMinimum bytes or more starts on a 2 MiB boundary, spans whole 2 MiB pages
// and asks for transparent huge pages (madvise MADV_HUGEPAGE) before anything writes it,
// where the system offers them. (Storage from plain operator new lies wherever malloc's
// mapping puts it, up to 2 MiB of it in 4 KiB pages before the first whole huge page:
// a 4 MiB buffer's first write took 0.73 ms that way and 0.32 ms aligned.)
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace spvsim::files {

// Storage this large or larger asks for huge pages (two 2 MiB pages or more).
inline constexpr uint64_t kHugePageMinimum = uint64_t{4} << 20;
inline constexpr uint64_t kHugePageBytes = uint64_t{2} << 20;

// Storage of `bytes` bytes: from kHugePageMinimum on aligned to kHugePageBytes, rounded
// up to whole huge pages and advised as huge pages; below it plain operator new. Throws
// std::bad_alloc. releaseHostStorage takes it back given the same size.
void* hostStorage(size_t bytes);
void releaseHostStorage(void* storage, size_t bytes) noexcept;

// The allocator of HostBytes (stateless: any two are equal). Elements are value
// initialised as with std::allocator: resize() and the size constructor write zeros.
template <typename T>
struct HostAllocator {
  using value_type = T;
  HostAllocator() = default;
  template <typename U>
  HostAllocator(const HostAllocator<U>&) noexcept {}
  T* allocate(size_t n) {
    if (n > size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(hostStorage(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) noexcept { releaseHostStorage(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const HostAllocator<U>&) const noexcept {
    return true;
  }
};

// A buffer's bytes (the command line's arguments, capture bundles' data).
using HostBytes = std::vector<uint8_t, HostAllocator<uint8_t>>;

// The same bytes held by a plain vector (expected contents) compare equal (found by
// argument-dependent lookup through the allocator's namespace; C++20 adds the reverse).
inline bool operator==(const HostBytes& a, const std::vector<uint8_t>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

// Makes `bytes` `size` zero bytes; from kHugePageMinimum on in fresh storage (so that
// the huge-page advice comes before the first write). Throws std::bad_alloc.
void zeroedBytes(HostBytes& bytes, uint64_t size);

// `size` zero bytes (zeroedBytes).
HostBytes zeroedBytes(uint64_t size);

}  // namespace spvsim::files
