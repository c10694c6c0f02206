// The SVM commands check every SVM-side range against the context's allocations
// before they touch memory: a range past an allocation's end, into freed SVM memory, or
// across the edge of the SVM window is CL_INVALID_VALUE (the spec's code for an invalid
// pointer or size), never a host fault; a range wholly outside the context's SVM memory
// is the host memory the spec allows on either side of a copy. A copy or fill queued
// behind a clEnqueueSVMFree of its memory fails through its event instead of faulting.
// Without the checks most of these cases wrote past the allocation or faulted.
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/tests/core/cl_fixture.h"

namespace spvsim::rt::test {
namespace {

class SvmRangesTest : public ClTest {
 protected:
  void TearDown() override {
    for (void* p : allocations) clSVMFree(context, p);
    ClTest::TearDown();
  }
  uint8_t* alloc(size_t size) {
    void* p = clSVMAlloc(context, CL_MEM_READ_WRITE, size, 0);
    if (p) allocations.push_back(p);
    return static_cast<uint8_t*>(p);
  }
  // An allocation freed at once: its pointer is freed SVM memory.
  uint8_t* freed(size_t size) {
    void* p = clSVMAlloc(context, CL_MEM_READ_WRITE, size, 0);
    clSVMFree(context, p);
    return static_cast<uint8_t*>(p);
  }
  cl_int fill(void* p, size_t size) {
    const uint32_t pattern = 0x5a5a5a5a;
    return clEnqueueSVMMemFill(queue, p, &pattern, sizeof pattern, size, 0, nullptr, nullptr);
  }
  cl_int copy(void* dst, const void* src, size_t size) {
    return clEnqueueSVMMemcpy(queue, CL_TRUE, dst, src, size, 0, nullptr, nullptr);
  }
  cl_int map(void* p, size_t size) {
    return clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, p, size, 0, nullptr, nullptr);
  }
  static bool allZero(const uint8_t* p, size_t n) {
    for (size_t i = 0; i < n; ++i)
      if (p[i]) return false;
    return true;
  }
  static cl_int statusOf(cl_event e) {
    cl_int status = CL_QUEUED;
    EXPECT_EQ(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
              CL_SUCCESS);
    return status;
  }

  std::vector<void*> allocations;
};

constexpr size_t kMiB = size_t(1) << 20;

TEST_F(SvmRangesTest, FillPastTheEndIsInvalidValue) {
  uint8_t* a = alloc(256);
  uint8_t* next = alloc(256);
  ASSERT_TRUE(a && next);
  EXPECT_EQ(fill(a, 260), CL_INVALID_VALUE);           // 4 bytes past
  EXPECT_EQ(fill(a + 128, 132), CL_INVALID_VALUE);     // from the middle, 4 bytes past
  EXPECT_EQ(fill(a, kMiB), CL_INVALID_VALUE);          // 1 MiB: past the guard page too
  EXPECT_EQ(fill(a, SIZE_MAX - 3), CL_INVALID_VALUE);  // wraps the address space
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_TRUE(allZero(a, 256));  // a rejected fill writes nothing
  EXPECT_TRUE(allZero(next, 256));
  // Up to the last byte is fine.
  ASSERT_EQ(fill(a + 128, 128), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_TRUE(allZero(a, 128));
  for (size_t i = 128; i < 256; ++i) ASSERT_EQ(a[i], 0x5a) << i;
  EXPECT_TRUE(allZero(next, 256));
}

TEST_F(SvmRangesTest, CopyPastTheEndIsInvalidValue) {
  uint8_t* a = alloc(256);
  uint8_t* b = alloc(256);
  ASSERT_TRUE(a && b);
  std::vector<uint8_t> host(2 * kMiB, 7);
  EXPECT_EQ(copy(a, host.data(), 257), CL_INVALID_VALUE);  // writes 1 byte past
  EXPECT_EQ(copy(a, host.data(), kMiB), CL_INVALID_VALUE);
  EXPECT_EQ(copy(host.data(), a, 257), CL_INVALID_VALUE);  // reads 1 byte past
  EXPECT_EQ(copy(host.data(), a, kMiB), CL_INVALID_VALUE);
  EXPECT_EQ(copy(a + 200, b, 64), CL_INVALID_VALUE);  // the destination runs past
  EXPECT_EQ(copy(a, b + 200, 64), CL_INVALID_VALUE);  // the source runs past
  EXPECT_EQ(copy(a, host.data(), SIZE_MAX), CL_INVALID_VALUE);
  EXPECT_TRUE(allZero(a, 256));
  EXPECT_TRUE(allZero(b, 256));
  for (uint8_t v : host) ASSERT_EQ(v, 7);  // nothing was read into it either
}

// Host memory on either side (or both) is the application's: copied as given.
TEST_F(SvmRangesTest, HostSidePointersStillWork) {
  uint8_t* a = alloc(256);
  ASSERT_NE(a, nullptr);
  std::vector<uint8_t> in(256), out(256, 0);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 3 + 1);
  ASSERT_EQ(copy(a, in.data(), 256), CL_SUCCESS);
  for (size_t i = 0; i < 256; ++i) ASSERT_EQ(a[i], uint8_t(i * 3 + 1)) << i;
  ASSERT_EQ(copy(out.data(), a + 16, 240), CL_SUCCESS);
  for (size_t i = 0; i < 240; ++i) ASSERT_EQ(out[i], uint8_t((i + 16) * 3 + 1)) << i;
  std::vector<uint8_t> other(256, 0);
  ASSERT_EQ(copy(other.data(), in.data(), 256), CL_SUCCESS);
  EXPECT_EQ(other, in);
  // A fill of host memory (what a system SVM pointer would be) is done as asked.
  alignas(4) uint8_t host[16] = {};
  ASSERT_EQ(fill(host + 4, 8), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  const uint8_t want[16] = {0, 0, 0, 0, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a};
  EXPECT_EQ(std::memcmp(host, want, sizeof host), 0);
}

TEST_F(SvmRangesTest, FreedSvmIsInvalidValueForEveryCommand) {
  uint8_t* keep = alloc(64);  // the window stays: the freed block lies inside it
  uint8_t* gone = freed(4096);
  ASSERT_TRUE(keep && gone);
  std::vector<uint8_t> host(64, 1);
  EXPECT_EQ(fill(gone, 16), CL_INVALID_VALUE);
  EXPECT_EQ(copy(gone, host.data(), 16), CL_INVALID_VALUE);
  EXPECT_EQ(copy(host.data(), gone + 64, 16), CL_INVALID_VALUE);
  EXPECT_EQ(copy(keep, gone, 16), CL_INVALID_VALUE);
  EXPECT_EQ(map(gone, 16), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMUnmap(queue, gone, 0, nullptr, nullptr), CL_INVALID_VALUE);
  const void* migrate[] = {gone};
  EXPECT_EQ(clEnqueueSVMMigrateMem(queue, 1, migrate, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  void* toFree[] = {gone};
  EXPECT_EQ(clEnqueueSVMFree(queue, 1, toFree, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  // A copy of nothing still names a pointer: freed memory is no valid one.
  EXPECT_EQ(copy(gone, host.data(), 0), CL_INVALID_VALUE);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  for (uint8_t v : host) ASSERT_EQ(v, 1);
}

// The byte after an allocation is its guard page: no allocation's, so a map or a
// fill there is an error, while an empty copy at the allocation's end touches nothing.
TEST_F(SvmRangesTest, JustPastAnAllocation) {
  uint8_t* a = alloc(4096);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(map(a + 4096, 4), CL_INVALID_VALUE);
  EXPECT_EQ(map(a + 4092, 5), CL_INVALID_VALUE);
  EXPECT_EQ(fill(a + 4096, 4), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMUnmap(queue, a + 4096, 0, nullptr, nullptr), CL_INVALID_VALUE);
  uint8_t host[4] = {};
  EXPECT_EQ(copy(a + 4096, host, 0), CL_SUCCESS);
  ASSERT_EQ(map(a + 4092, 4), CL_SUCCESS);
  EXPECT_EQ(clEnqueueSVMUnmap(queue, a + 4092, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
}

// The first allocation of a context starts its SVM window: memory below it is not SVM,
// but a range from there into the allocation is no host range either.
TEST_F(SvmRangesTest, RangeRunningIntoTheWindowIsInvalidValue) {
  uint8_t* a = alloc(256);
  ASSERT_NE(a, nullptr);
  std::vector<uint8_t> host(64, 0);
  EXPECT_EQ(copy(host.data(), a - 16, 32), CL_INVALID_VALUE);
  EXPECT_EQ(copy(a - 16, host.data(), 32), CL_INVALID_VALUE);
  EXPECT_TRUE(allZero(a, 256));
}

TEST_F(SvmRangesTest, Overlaps) {
  uint8_t* a = alloc(256);
  ASSERT_NE(a, nullptr);
  for (int i = 0; i < 64; ++i) a[i] = uint8_t(i);
  EXPECT_EQ(copy(a + 8, a, 16), CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(copy(a, a + 15, 16), CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(copy(a, a, 1), CL_MEM_COPY_OVERLAP);
  std::vector<uint8_t> host(32);
  EXPECT_EQ(copy(host.data() + 4, host.data(), 8), CL_MEM_COPY_OVERLAP);
  // Adjacent ranges share no byte.
  ASSERT_EQ(copy(a + 16, a, 16), CL_SUCCESS);
  for (int i = 0; i < 16; ++i) ASSERT_EQ(a[16 + i], uint8_t(i)) << i;
  // A range past the end is reported as such even when the ranges also overlap.
  EXPECT_EQ(copy(a + 200, a + 190, 64), CL_INVALID_VALUE);
}

// clEnqueueSVMFree without a callback frees what clSVMAlloc returned, nothing else;
// with one, the callback's own (host) pointers are its business.
TEST_F(SvmRangesTest, EnqueueFreeTakesAllocationsOnly) {
  uint8_t* a = alloc(256);
  ASSERT_NE(a, nullptr);
  void* middle[] = {a + 16};
  EXPECT_EQ(clEnqueueSVMFree(queue, 1, middle, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  int host = 0;
  void* notSvm[] = {&host};
  EXPECT_EQ(clEnqueueSVMFree(queue, 1, notSvm, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  auto callback = [](cl_command_queue, cl_uint n, void* ptrs[], void* seen) {
    *static_cast<void**>(seen) = n == 1 ? ptrs[0] : nullptr;
  };
  void* seen = nullptr;
  EXPECT_EQ(clEnqueueSVMFree(queue, 1, middle, callback, &seen, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  ASSERT_EQ(clEnqueueSVMFree(queue, 1, notSvm, callback, &seen, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(seen, &host);
  EXPECT_EQ(map(a, 256), CL_SUCCESS);  // still allocated
}

// A fill and a copy queued behind a clEnqueueSVMFree of their memory passed the checks
// when they were queued; they find the memory freed when they run and fail through
// their events.
TEST_F(SvmRangesTest, CommandsQueuedBehindAFreeFail) {
  uint8_t* p = static_cast<uint8_t*>(clSVMAlloc(context, CL_MEM_READ_WRITE, 4096, 0));
  ASSERT_NE(p, nullptr);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  void* ptrs[] = {p};
  ASSERT_EQ(clEnqueueSVMFree(queue, 1, ptrs, nullptr, nullptr, 1, &gate, nullptr), CL_SUCCESS);
  const uint32_t pattern = 1;
  std::vector<uint8_t> host(kMiB, 3);
  cl_event filled = nullptr, copied = nullptr;
  ASSERT_EQ(clEnqueueSVMMemFill(queue, p, &pattern, 4, 4096, 0, nullptr, &filled), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMemcpy(queue, CL_FALSE, host.data(), p, 4096, 0, nullptr, &copied),
            CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  clFinish(queue);
  EXPECT_EQ(statusOf(filled), CL_INVALID_VALUE);
  EXPECT_EQ(statusOf(copied), CL_INVALID_VALUE);
  for (uint8_t v : host) ASSERT_EQ(v, 3);
  for (cl_event e : {gate, filled, copied}) clReleaseEvent(e);
}

// Two queued frees of one pointer: the second finds the allocation gone when it runs,
// and must not free a new allocation made at the same address in between.
TEST_F(SvmRangesTest, QueuedDoubleFreeSparesALaterAllocation) {
  void* p = clSVMAlloc(context, CL_MEM_READ_WRITE, 4096, 0);
  ASSERT_NE(p, nullptr);
  // Both are queued while `p` is live (gated, so that neither has run yet).
  cl_int err = CL_SUCCESS;
  cl_event gates[2];
  for (cl_event& g : gates) {
    g = clCreateUserEvent(context, &err);
    ASSERT_EQ(err, CL_SUCCESS);
  }
  void* ptrs[] = {p};
  cl_event first = nullptr;
  ASSERT_EQ(clEnqueueSVMFree(queue, 1, ptrs, nullptr, nullptr, 1, &gates[0], &first), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMFree(queue, 1, ptrs, nullptr, nullptr, 1, &gates[1], nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gates[0], CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &first), CL_SUCCESS);
  // First fit puts the new block where the freed one was: the case that matters.
  uint8_t* again = alloc(4096);
  ASSERT_EQ(again, p);
  ASSERT_EQ(clSetUserEventStatus(gates[1], CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(map(again, 4096), CL_SUCCESS);  // still allocated
  again[4095] = 1;                          // and writable
  for (cl_event e : {first, gates[0], gates[1]}) clReleaseEvent(e);
}

TEST_F(SvmRangesTest, MigrateChecksEveryRange) {
  uint8_t* a = alloc(256);
  ASSERT_NE(a, nullptr);
  const void* ptrs[] = {a, a + 255};
  const size_t fits[] = {256, 1}, past[] = {256, 2};
  EXPECT_EQ(clEnqueueSVMMigrateMem(queue, 2, ptrs, fits, 0, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueSVMMigrateMem(queue, 2, ptrs, past, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  const void* end[] = {a + 256};
  EXPECT_EQ(clEnqueueSVMMigrateMem(queue, 1, end, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);  // size 0: the allocation it points into, and it is none
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
}

}  // namespace
}  // namespace spvsim::rt::test
