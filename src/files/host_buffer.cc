#include "src/files/host_buffer.h"

#include <sys/mman.h>

namespace spvsim::files {
namespace {

constexpr uintptr_t kHugePage = uintptr_t{2} << 20;

// Asks for huge pages over the whole 2 MiB pages inside [data, data + size); advice only
// (a kernel without transparent huge pages, or with them off, says no and nothing changes).
void adviseHugePages(uint8_t* data, uint64_t size) {
#ifdef MADV_HUGEPAGE
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + size) & ~(kHugePage - 1);
  if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)size;
#endif
}

}  // namespace

void zeroedBytes(std::vector<uint8_t>& bytes, uint64_t size) {
  if (size < kHugePageMinimum) {
    bytes.assign(size, 0);
    return;
  }
  // Fresh storage, reserved (not yet touched: malloc maps a block this large from the
  // kernel) with one huge page more, so that the last one lies whole inside it; advised
  // before the zeroing below writes it.
  std::vector<uint8_t> fresh;
  fresh.reserve(size + kHugePage);
  adviseHugePages(fresh.data(), fresh.capacity());
  fresh.resize(size);
  bytes = std::move(fresh);
}

std::vector<uint8_t> zeroedBytes(uint64_t size) {
  std::vector<uint8_t> bytes;
  zeroedBytes(bytes, size);
  return bytes;
}

}  // namespace spvsim::files
