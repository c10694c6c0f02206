// zeroedBytes: zeros of the size asked, fresh storage from the huge-page size on.
#include "src/files/host_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace spvsim::files {
namespace {

TEST(HostBuffer, ZeroedBytesOfEverySize) {
  for (uint64_t size : {uint64_t{0}, uint64_t{1}, kHugePageMinimum - 1, kHugePageMinimum,
                        (uint64_t{16} << 20) + 3}) {
    std::vector<uint8_t> bytes(100, 7);  // what was there goes
    zeroedBytes(bytes, size);
    ASSERT_EQ(bytes.size(), size);
    EXPECT_TRUE(std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; }));
    EXPECT_EQ(zeroedBytes(size), bytes);
  }
}

}  // namespace
}  // namespace spvsim::files
