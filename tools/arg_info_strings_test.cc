#include "tools/arg_info_strings.h"

#include <gtest/gtest.h>

#include <cstring>

namespace spvsim::tools {
namespace {

using Strings = std::vector<std::string>;

TEST(KernelArgStrings, ReadsTypesAndQualifiersOfEveryKernel) {
  const std::string ir =
      "define dso_local spir_kernel void @q(i32 addrspace(1)* %0, i32 %1) #0 "
      "!kernel_arg_addr_space !4 !kernel_arg_type !6 !kernel_arg_base_type !7 "
      "!kernel_arg_type_qual !8 !kernel_arg_name !9 {\n"
      "define spir_func i32 @helper(i32 %0) {\n"
      "define spir_kernel void @\"odd name\"() !kernel_arg_type !10 !kernel_arg_type_qual !10 {\n"
      "!6 = !{!\"int*\", !\"uint\"}\n"
      "!7 = !{!\"int*\", !\"uint\"}\n"
      "!8 = !{!\"restrict const\", !\"\"}\n"
      "!10 = !{}\n";
  EXPECT_EQ(kernelArgStrings(ir),
            (Strings{"kernel_arg_type.q.int*,uint,", "kernel_arg_type_qual.q.restrict const,,",
                     "kernel_arg_type.odd name.", "kernel_arg_type_qual.odd name."}));
}

TEST(WithOpStrings, AddsStringsAfterTheExecutionModesWithFreshIds) {
  // Header, OpCapability Kernel, OpMemoryModel Physical64 OpenCL, OpName %1 "k".
  const std::vector<uint32_t> words = {
      0x07230203, 0x00010000,     0, 7,  0, (2u << 16) | 17, 6, (3u << 16) | 14, 2,
      2,          (3u << 16) | 5, 1, 'k'};
  const std::vector<uint32_t> out = withOpStrings(words, {"abcd"});
  ASSERT_EQ(out.size(), words.size() + 4);
  EXPECT_EQ(out[3], 8u);               // the bound
  EXPECT_EQ(out[10], (4u << 16) | 7);  // OpString, 4 words, before OpName
  EXPECT_EQ(out[11], 7u);
  EXPECT_EQ(std::memcmp(&out[12], "abcd\0\0\0", 8), 0);
  EXPECT_EQ(out[14], (3u << 16) | 5);
}

}  // namespace
}  // namespace spvsim::tools
