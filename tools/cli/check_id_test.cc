// The ids of spvsim check's configurations: FNV-1a 64 as its definition gives it, over the
// text check_id.h documents, so that they are the same on every machine and in every run.
#include "tools/cli/check_id.h"

#include <gtest/gtest.h>

namespace spvsim::tools {
namespace {

// The definition, written out again: for each byte, xor it in, then multiply by the
// prime modulo 2^64.
uint64_t referenceFnv(const std::string& bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

TEST(CheckId, FnvOfOneByteWorkedByHand) {
  // "a" = 0x61: 0xcbf29ce484222325 ^ 0x61 = 0xcbf29ce484222344; times 0x100000001b3 is
  // 0xcbf29ce484222344 + (0xcbf29ce484222344 << 40) + 0xcbf29ce484222344 * 0x1b3, which
  // modulo 2^64 is 0xaf63dc4c8601ec8c (also FNV's published test vector for "a").
  EXPECT_EQ(fnv1a64(std::string_view("")), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64(std::string_view("a")), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(hex64(0xaf63dc4c8601ec8cull), "af63dc4c8601ec8c");
  EXPECT_EQ(hex64(0x1f), "000000000000001f");
}

TEST(CheckId, HashingInPiecesIsHashingTheWhole) {
  EXPECT_EQ(fnv1a64(std::string_view("def"), fnv1a64(std::string_view("abc"))),
            fnv1a64(std::string_view("abcdef")));
}

// One word of module, kernel "k", global 4, no arguments: the id is FNV-1a of exactly this
// text (check_id.h), continued over the configuration's fields.
TEST(CheckId, IdIsTheHashOfTheDocumentedText) {
  const std::vector<uint32_t> words = {0x07230203};
  IdRange range;
  range.global = {4, 1, 1};
  const uint64_t launch = launchHash(words, "k", range, {});
  const std::string text = std::string("spvsim-check-id 1\nmodule 1\n") +
                           std::string("\x03\x02\x23\x07", 4) +
                           "\nkernel k\nglobal 4,1,1\nlocal auto\noffset 0,0,0\n";
  EXPECT_EQ(launch, referenceFnv(text));
  const ConfigFields fields = {{"sub_group_size", "8"}, {"schedule", "round-robin"}};
  EXPECT_EQ(configText(fields), "sub_group_size=8\nschedule=round-robin\n");
  EXPECT_EQ(configId(launch, fields),
            hex64(referenceFnv(text + "sub_group_size=8\nschedule=round-robin\n")));
  // In a sweep, the launch's path inside DIR follows.
  EXPECT_EQ(launchHash(words, "k", range, {}, "b/a.sim"),
            referenceFnv(text + "sweep-path b/a.sim\n"));
}

TEST(CheckId, StableAndDistinct) {
  ArgValue buffer;
  buffer.kind = ArgValue::Kind::Buffer;
  buffer.text = "buffer:int[2]=zero";
  buffer.type = *parseElementType("int");
  buffer.count = 2;
  buffer.bytes.assign(8, 0);
  const std::vector<uint32_t> words = {0x07230203, 0x00010000};
  IdRange range;
  const uint64_t a = launchHash(words, "k", range, {buffer});
  EXPECT_EQ(a, launchHash(words, "k", range, {buffer}));  // the same inputs, the same hash
  const ConfigFields eight = {{"sub_group_size", "8"}, {"schedule", "round-robin"}};
  const ConfigFields sixteen = {{"sub_group_size", "16"}, {"schedule", "round-robin"}};
  EXPECT_EQ(configId(a, eight), configId(a, eight));
  EXPECT_NE(configId(a, eight), configId(a, sixteen));
  // Contents, kernel, sizes and the module each change the launch.
  ArgValue other = buffer;
  other.bytes[7] = 1;
  EXPECT_NE(a, launchHash(words, "k", range, {other}));
  EXPECT_NE(a, launchHash(words, "k2", range, {buffer}));
  IdRange wider = range;
  wider.global = {8, 1, 1};
  EXPECT_NE(a, launchHash(words, "k", wider, {buffer}));
  EXPECT_NE(a, launchHash(std::vector<uint32_t>{0x07230203, 0x00010100}, "k", range, {buffer}));
}

}  // namespace
}  // namespace spvsim::tools
