// The fold of privatised copies (src/exec/reduction_copies.h): every slicing of the
// buffers gives what applying every thread's updates one by one gives, whichever threads
// made copies; and a fold is sliced only where it has much to read. Expected values come
// from the plain loops below.
#include "src/exec/reduction_copies.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace spvsim {
namespace {

using Copies = std::vector<std::unique_ptr<ReductionCopies>>;

Copies makeCopies(const std::vector<PrivatisedRegion>& regions, unsigned threads) {
  Copies c(threads);
  for (auto& p : c) p = std::make_unique<ReductionCopies>(regions);
  return c;
}

// Thread t adds (t * 7 + e) % 13 to every 32-bit element e and maxes every (t + 1)-th
// 64-bit one in its copies; threads 2 and 5 never touch the 64-bit buffer.
TEST(ReductionCopies, EverySlicingFoldsEveryThreadsCopies) {
  constexpr unsigned kThreads = 6;
  for (unsigned slices : {1u, 2u, 3u, 5u, 6u, 16u}) {
    SCOPED_TRACE(slices);
    std::vector<uint32_t> adds(1001, 7);  // 4004 bytes: not whole 64-byte blocks
    std::vector<uint64_t> maxs(300, 40);
    std::vector<PrivatisedRegion> regions = {
        {1, ReductionOp::Add, 4, reinterpret_cast<uint8_t*>(adds.data()), adds.size() * 4},
        {2, ReductionOp::UMax, 8, reinterpret_cast<uint8_t*>(maxs.data()), maxs.size() * 8}};
    std::vector<uint32_t> wantAdds = adds;
    std::vector<uint64_t> wantMaxs = maxs;
    Copies copies = makeCopies(regions, kThreads);
    for (unsigned t = 0; t < kThreads; ++t) {
      uint8_t* a = copies[t]->copyFor(1, ReductionOp::Add, 4);
      for (size_t e = 0; e < adds.size(); ++e) {
        const uint32_t v = (t * 7 + e) % 13;
        uint32_t c;
        std::memcpy(&c, a + e * 4, 4);
        c += v;
        std::memcpy(a + e * 4, &c, 4);
        wantAdds[e] += v;
      }
      if (t == 2 || t == 5) continue;
      uint8_t* m = copies[t]->copyFor(2, ReductionOp::UMax, 8);
      for (size_t e = 0; e < maxs.size(); e += t + 1) {
        const uint64_t v = (e * 31 + t * 1000) % 997;
        uint64_t c;
        std::memcpy(&c, m + e * 8, 8);
        c = std::max(c, v);
        std::memcpy(m + e * 8, &c, 8);
        wantMaxs[e] = std::max(wantMaxs[e], v);
      }
    }
    EXPECT_EQ(copies[2]->made(1), nullptr);
    for (unsigned s = 0; s < slices; ++s) foldCopies(regions, copies, s, slices);
    EXPECT_EQ(adds, wantAdds);
    EXPECT_EQ(maxs, wantMaxs);
  }
}

// One slice per kFoldSliceBytes of copies to read, at most one per thread.
TEST(ReductionCopies, SlicesOnlyAFoldWithMuchToRead) {
  std::vector<uint32_t> small(256), large(kMaxPrivatisedBytes / 4);
  std::vector<PrivatisedRegion> regions = {
      {1, ReductionOp::Add, 4, reinterpret_cast<uint8_t*>(small.data()), small.size() * 4},
      {2, ReductionOp::Add, 4, reinterpret_cast<uint8_t*>(large.data()), large.size() * 4}};
  Copies copies = makeCopies(regions, 8);
  EXPECT_EQ(foldSlices(regions, copies, 8), 1u);  // nothing made
  for (auto& c : copies) c->copyFor(1, ReductionOp::Add, 4);
  EXPECT_EQ(foldSlices(regions, copies, 8), 1u);  // 8 KiB of copies
  for (unsigned t = 0; t < 3; ++t) copies[t]->copyFor(2, ReductionOp::Add, 4);
  EXPECT_EQ(foldSlices(regions, copies, 8), 3u);  // 3 x 256 KiB
  for (auto& c : copies) c->copyFor(2, ReductionOp::Add, 4);
  EXPECT_EQ(foldSlices(regions, copies, 8), 8u);
  EXPECT_EQ(foldSlices(regions, copies, 4), 4u);
}

}  // namespace
}  // namespace spvsim
