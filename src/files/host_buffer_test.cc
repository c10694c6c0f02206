// HostBytes: zeros of the size asked; from the huge-page size on, storage that starts on
// a huge page and spans whole ones, whatever malloc's mappings look like.
#include "src/files/host_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace spvsim::files {
namespace {

bool onHugePage(const HostBytes& bytes) {
  return reinterpret_cast<uintptr_t>(bytes.data()) % kHugePageBytes == 0;
}

bool allZero(const HostBytes& bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; });
}

TEST(HostBuffer, ZeroedBytesOfEverySize) {
  for (uint64_t size : {uint64_t{0}, uint64_t{1}, kHugePageMinimum - 1, kHugePageMinimum,
                        (uint64_t{16} << 20) + 3}) {
    HostBytes bytes(100, 7);  // what was there goes
    zeroedBytes(bytes, size);
    ASSERT_EQ(bytes.size(), size);
    EXPECT_TRUE(allZero(bytes));
    EXPECT_EQ(zeroedBytes(size), bytes);
    if (size >= kHugePageMinimum) EXPECT_TRUE(onHugePage(bytes)) << size;
  }
}

TEST(HostBuffer, LargeStorageStartsOnAHugePageHoweverItIsMade) {
  // Many at once, so that malloc's own placement (a 16-byte header before each mapping's
  // data, or a heap after the mmap threshold rose) cannot happen to align them all.
  std::vector<HostBytes> buffers;
  for (uint64_t extra : {0, 1, 4095, 4096, 2 << 20, (2 << 20) + 17}) {
    buffers.push_back(zeroedBytes(kHugePageMinimum + extra));
    buffers.emplace_back(kHugePageMinimum + extra, uint8_t{5});
  }
  for (const HostBytes& b : buffers) EXPECT_TRUE(onHugePage(b)) << b.size();
  HostBytes copy = buffers.back();
  EXPECT_TRUE(onHugePage(copy));
  EXPECT_EQ(copy, buffers.back());
}

TEST(HostBuffer, GrowingPastTheHugePageSizeKeepsTheBytes) {
  HostBytes bytes(1000);
  std::iota(bytes.begin(), bytes.end(), uint8_t{0});
  bytes.resize(kHugePageMinimum + 5);  // reallocates into huge-page storage
  EXPECT_TRUE(onHugePage(bytes));
  for (size_t i = 0; i < 1000; ++i) ASSERT_EQ(bytes[i], uint8_t(i)) << i;
  EXPECT_TRUE(std::all_of(bytes.begin() + 1000, bytes.end(), [](uint8_t b) { return b == 0; }));
  bytes.resize(10);
  bytes.shrink_to_fit();  // back to plain storage, released as what it was allocated as
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(HostBuffer, ImpossibleSizesThrowBadAlloc) {
  HostAllocator<uint8_t> allocator;
  EXPECT_THROW((void)allocator.allocate(size_t(-1) - 5), std::bad_alloc);
  EXPECT_THROW((void)HostAllocator<uint64_t>().allocate(size_t(-1) / 4), std::bad_alloc);
}

}  // namespace
}  // namespace spvsim::files
