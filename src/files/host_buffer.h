// Host storage for a launch's buffers: byte vectors of megabytes that the launch, the
// initialisers and the dumps each go over. On Linux the kernel backs anonymous memory
// with 4 KiB pages unless asked: a fresh 16 MiB buffer then costs 4096 page faults when
// it is first written, and every pass over it a TLB miss per 4 KiB, which on a virtual
// machine (nested page tables) costs more than the bytes' bandwidth. zeroedBytes asks
// for transparent huge pages (madvise MADV_HUGEPAGE) before the first write, where the
// system offers them; elsewhere it is a plain zeroed vector.
#pragma once

#include <cstdint>
#include <vector>

namespace spvsim::files {

// Buffers this large or larger ask for huge pages (two 2 MiB pages or more).
inline constexpr uint64_t kHugePageMinimum = uint64_t{4} << 20;

// Makes `bytes` `size` zero bytes, in fresh storage that asks for huge pages when it is
// kHugePageMinimum or more. Throws std::bad_alloc as std::vector does.
void zeroedBytes(std::vector<uint8_t>& bytes, uint64_t size);

// A vector of `size` zero bytes (zeroedBytes).
std::vector<uint8_t> zeroedBytes(uint64_t size);

}  // namespace spvsim::files
