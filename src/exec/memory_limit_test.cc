// The memory limit's helpers (src/exec/memory_limit.h): the byte-count syntax of --max-memory
// and SPVSIM_MAX_MEMORY, saturating size arithmetic, and the out-of-memory message.
#include "src/exec/memory_limit.h"

#include <gtest/gtest.h>

#include "spirv/error.h"

namespace spvsim {
namespace {

TEST(MemoryLimit, ByteCountsWithUnits) {
  EXPECT_EQ(parseByteCount("1"), 1u);
  EXPECT_EQ(parseByteCount("4096"), 4096u);
  EXPECT_EQ(parseByteCount("256K"), 256u << 10);
  EXPECT_EQ(parseByteCount("256k"), 256u << 10);
  EXPECT_EQ(parseByteCount("512M"), 512ull << 20);
  EXPECT_EQ(parseByteCount("16G"), 16ull << 30);
  EXPECT_EQ(parseByteCount("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(parseByteCount("17179869183G"), 17179869183ull << 30);
}

TEST(MemoryLimit, MalformedByteCountsAreZero) {
  for (const char* bad : {"", "0", "0K", "K", "-1", "1.5G", "1T", "1KB", "1 K", " 1", "0x10",
                          "18446744073709551616", "17179869184G", "99999999999999999999999"})
    EXPECT_EQ(parseByteCount(bad), 0u) << bad;
}

TEST(MemoryLimit, SizeArithmeticSaturates) {
  EXPECT_EQ(addBytes(1, 2), 3u);
  EXPECT_EQ(addBytes(UINT64_MAX - 1, 2), UINT64_MAX);
  EXPECT_EQ(mulBytes(1ull << 32, 1ull << 31), 1ull << 63);
  EXPECT_EQ(mulBytes(1ull << 32, 1ull << 32), UINT64_MAX);
  EXPECT_EQ(mulBytes(0, UINT64_MAX), 0u);
}

TEST(MemoryLimit, SizesReadAsThreeDigitsWithoutExponents) {
  EXPECT_EQ(formatBytes(100), "100 bytes");
  EXPECT_EQ(formatBytes(1536), "1.5 KiB");
  EXPECT_EQ(formatBytes((1ull << 30) - 16), "1024 MiB");
  EXPECT_EQ(formatBytes(250ull << 20), "250 MiB");
  EXPECT_EQ(formatBytes(16ull << 30), "16 GiB");
}

TEST(MemoryLimit, OverTheLimitIsAnOutOfMemoryErrorNamingBoth) {
  EXPECT_NO_THROW(checkMemory(1024, 1024, "x"));
  try {
    checkMemory(3ull << 30, 1ull << 30, "local memory for 2 work-groups");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::OutOfMemory);
    EXPECT_EQ(std::string(e.what()),
              "local memory for 2 work-groups would take 3221225472 bytes (3 GiB), more than "
              "the memory limit of 1073741824 bytes (1 GiB); raise the limit with --max-memory "
              "(spvsim) or SPVSIM_MAX_MEMORY (OpenCL ICD)");
  }
}

}  // namespace
}  // namespace spvsim
