#include "src/files/host_buffer.h"

#include <sys/mman.h>

#include <new>

namespace spvsim::files {
namespace {

constexpr std::align_val_t kHugePageAlignment{kHugePageBytes};

// Advice only: a kernel without transparent huge pages, or with them off, says no and
// nothing changes.
void adviseHugePages(void* storage, size_t bytes) {
#ifdef MADV_HUGEPAGE
  (void)madvise(storage, bytes, MADV_HUGEPAGE);
#else
  (void)storage;
  (void)bytes;
#endif
}

size_t wholeHugePages(size_t bytes) {
  return (bytes + (kHugePageBytes - 1)) & ~size_t(kHugePageBytes - 1);
}

}  // namespace

void* hostStorage(size_t bytes) {
  if (bytes < kHugePageMinimum) return ::operator new(bytes);
  if (bytes > size_t(-1) - kHugePageBytes) throw std::bad_alloc();
  // Aligned operator new maps a block this large from the kernel and returns the aligned
  // part; nothing has touched the pages yet.
  const size_t rounded = wholeHugePages(bytes);
  void* storage = ::operator new(rounded, kHugePageAlignment);
  adviseHugePages(storage, rounded);
  return storage;
}

void releaseHostStorage(void* storage, size_t bytes) noexcept {
  if (bytes < kHugePageMinimum)
    ::operator delete(storage);
  else
    ::operator delete(storage, kHugePageAlignment);
}

void zeroedBytes(HostBytes& bytes, uint64_t size) {
  if (size < kHugePageMinimum) {
    bytes.assign(size, 0);
    return;
  }
  HostBytes fresh(size);
  bytes = std::move(fresh);
}

HostBytes zeroedBytes(uint64_t size) {
  HostBytes bytes;
  zeroedBytes(bytes, size);
  return bytes;
}

}  // namespace spvsim::files
