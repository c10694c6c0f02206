// Buffers and sub-buffers and every buffer command through the loader, checked against
// host-side copies computed independently, with the errors of each entry point.
#include "runtime/tests/core/cl_fixture.h"
// (cl_fixture.h first: it selects the ICD.)
#include <numeric>

namespace spvsim::rt::test {
namespace {

template <class T>
T memValue(cl_mem m, cl_mem_info param) {
  T v{};
  EXPECT_EQ(clGetMemObjectInfo(m, param, sizeof v, &v, nullptr), CL_SUCCESS);
  return v;
}

std::vector<uint8_t> iota(size_t n, uint8_t start = 0) {
  std::vector<uint8_t> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

class BufferTest : public ClTest {
 protected:
  std::vector<uint8_t> readAll(cl_mem m, size_t size) {
    std::vector<uint8_t> out(size);
    EXPECT_EQ(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, size, out.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    return out;
  }
  cl_mem create(cl_mem_flags flags, size_t size, void* host, cl_int expected) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context, flags, size, host, &err);
    EXPECT_EQ(err, expected) << "flags " << flags << " size " << size;
    EXPECT_EQ(m == nullptr, expected != CL_SUCCESS);
    return m;
  }
};

TEST_F(BufferTest, HostPointerFlags) {
  auto host = iota(256);
  // COPY_HOST_PTR copies at creation: later host changes are not seen.
  cl_mem copied = create(CL_MEM_COPY_HOST_PTR, 256, host.data(), CL_SUCCESS);
  // USE_HOST_PTR uses the application's memory itself.
  cl_mem used = create(CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY, 256, host.data(), CL_SUCCESS);
  cl_mem alloc = create(CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, 256, host.data(), CL_SUCCESS);
  host[0] = 200;
  EXPECT_EQ(readAll(copied, 256)[0], 0);
  EXPECT_EQ(readAll(used, 256)[0], 200);
  EXPECT_EQ(readAll(alloc, 256), iota(256));
  EXPECT_EQ(memValue<void*>(used, CL_MEM_HOST_PTR), host.data());
  EXPECT_EQ(memValue<void*>(copied, CL_MEM_HOST_PTR), nullptr);
  uint8_t v = 77;
  ASSERT_EQ(clEnqueueWriteBuffer(queue, used, CL_TRUE, 5, 1, &v, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(host[5], 77);
  // Fresh buffers read as zeros.
  cl_mem plain = buffer(64);
  EXPECT_EQ(readAll(plain, 64), std::vector<uint8_t>(64, 0));
  for (cl_mem m : {copied, used, alloc, plain}) clReleaseMemObject(m);
}

TEST_F(BufferTest, CreateErrors) {
  uint8_t host[16];
  create(CL_MEM_READ_WRITE, 0, nullptr, CL_INVALID_BUFFER_SIZE);
  cl_ulong maxAlloc = deviceValue<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  create(CL_MEM_READ_WRITE, maxAlloc + 1, nullptr, CL_INVALID_BUFFER_SIZE);
  create(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 16, nullptr, CL_INVALID_VALUE);
  create(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 16, nullptr, CL_INVALID_VALUE);
  create(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 16, host, CL_INVALID_VALUE);
  create(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 16, host, CL_INVALID_VALUE);
  create(cl_mem_flags(1) << 40, 16, nullptr, CL_INVALID_VALUE);
  create(CL_MEM_USE_HOST_PTR, 16, nullptr, CL_INVALID_HOST_PTR);
  create(CL_MEM_COPY_HOST_PTR, 16, nullptr, CL_INVALID_HOST_PTR);
  create(CL_MEM_READ_WRITE, 16, host, CL_INVALID_HOST_PTR);
  cl_int err;
  int bogus = 0;
  EXPECT_EQ(dispatchOf(device)->clCreateBuffer(reinterpret_cast<cl_context>(&bogus), 0, 16, nullptr,
                                               &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  cl_mem_properties props[] = {0x1234, 0, 0};
  EXPECT_EQ(clCreateBufferWithProperties(context, props, 0, 16, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
}

TEST_F(BufferTest, Queries) {
  cl_mem_properties empty[] = {0};
  cl_int err;
  cl_mem m = clCreateBufferWithProperties(context, empty, CL_MEM_WRITE_ONLY, 1000, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(memValue<cl_mem_object_type>(m, CL_MEM_TYPE), cl_mem_object_type(CL_MEM_OBJECT_BUFFER));
  EXPECT_EQ(memValue<cl_mem_flags>(m, CL_MEM_FLAGS), cl_mem_flags(CL_MEM_WRITE_ONLY));
  EXPECT_EQ(memValue<size_t>(m, CL_MEM_SIZE), 1000u);
  EXPECT_EQ(memValue<cl_uint>(m, CL_MEM_MAP_COUNT), 0u);
  EXPECT_EQ(memValue<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 1u);
  EXPECT_EQ(memValue<cl_context>(m, CL_MEM_CONTEXT), context);
  EXPECT_EQ(memValue<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT), nullptr);
  EXPECT_EQ(memValue<size_t>(m, CL_MEM_OFFSET), 0u);
  EXPECT_EQ(memValue<cl_bool>(m, CL_MEM_USES_SVM_POINTER), cl_bool(CL_FALSE));
  size_t size = 0;
  ASSERT_EQ(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof(cl_mem_properties));  // the list as given: {0}
  cl_mem plain = buffer(8);
  ASSERT_EQ(clGetMemObjectInfo(plain, CL_MEM_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(clGetMemObjectInfo(m, 0xdead, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clRetainMemObject(m), CL_SUCCESS);
  EXPECT_EQ(memValue<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 2u);
  clReleaseMemObject(m);
  clReleaseMemObject(m);
  clReleaseMemObject(plain);
  int bogus = 0;
  auto* table = dispatchOf(device);
  auto bm = reinterpret_cast<cl_mem>(&bogus);
  EXPECT_EQ(table->clRetainMemObject(bm), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(table->clReleaseMemObject(bm), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(table->clGetMemObjectInfo(bm, CL_MEM_SIZE, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
}

TEST_F(BufferTest, SubBuffers) {
  auto host = iota(1024);
  cl_mem parent = create(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_READ_ONLY, 1024,
                         host.data(), CL_SUCCESS);
  cl_buffer_region region{256, 128};
  cl_int err;
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(memValue<cl_mem>(sub, CL_MEM_ASSOCIATED_MEMOBJECT), parent);
  EXPECT_EQ(memValue<size_t>(sub, CL_MEM_OFFSET), 256u);
  EXPECT_EQ(memValue<size_t>(sub, CL_MEM_SIZE), 128u);
  // Unspecified flags are inherited.
  auto flags = memValue<cl_mem_flags>(sub, CL_MEM_FLAGS);
  EXPECT_TRUE(flags & CL_MEM_READ_ONLY);
  EXPECT_TRUE(flags & CL_MEM_HOST_READ_ONLY);
  EXPECT_TRUE(flags & CL_MEM_COPY_HOST_PTR);
  EXPECT_EQ(readAll(sub, 128), std::vector<uint8_t>(host.begin() + 256, host.begin() + 384));
  EXPECT_EQ(memValue<cl_uint>(parent, CL_MEM_REFERENCE_COUNT), 2u);  // the sub-buffer's
  // Errors: wider access than the parent, host-pointer flags, bad regions.
  auto fails = [&](cl_mem b, cl_mem_flags f, cl_buffer_region r, cl_int expected) {
    EXPECT_EQ(clCreateSubBuffer(b, f, CL_BUFFER_CREATE_TYPE_REGION, &r, &err), nullptr);
    EXPECT_EQ(err, expected) << "flags " << f << " origin " << r.origin << " size " << r.size;
  };
  fails(parent, CL_MEM_READ_WRITE, region, CL_INVALID_VALUE);
  fails(parent, CL_MEM_WRITE_ONLY, region, CL_INVALID_VALUE);
  fails(parent, CL_MEM_HOST_WRITE_ONLY, region, CL_INVALID_VALUE);
  fails(parent, CL_MEM_USE_HOST_PTR, region, CL_INVALID_VALUE);
  fails(parent, 0, {1024, 128}, CL_INVALID_VALUE);  // out of bounds
  fails(parent, 0, {0, 0}, CL_INVALID_BUFFER_SIZE);
  fails(parent, 0, {4, 16}, CL_MISALIGNED_SUB_BUFFER_OFFSET);  // base alignment is 128 bytes
  fails(sub, 0, {0, 16}, CL_INVALID_MEM_OBJECT);               // no sub-buffers of sub-buffers
  EXPECT_EQ(clCreateSubBuffer(parent, 0, 0x9999, &region, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // The parent stays alive while its sub-buffer does.
  clReleaseMemObject(parent);
  EXPECT_EQ(readAll(sub, 128)[0], 0);  // host[256] == 0 (uint8 wraps)
  clReleaseMemObject(sub);
}

TEST_F(BufferTest, SubBufferOfUseHostPtrSharesHostMemory) {
  auto host = iota(512);
  cl_mem parent = create(CL_MEM_USE_HOST_PTR, 512, host.data(), CL_SUCCESS);
  cl_buffer_region region{128, 256};
  cl_int err;
  cl_mem sub =
      clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(memValue<void*>(sub, CL_MEM_HOST_PTR), host.data() + 128);
  uint8_t v = 9;
  ASSERT_EQ(clEnqueueWriteBuffer(queue, sub, CL_TRUE, 2, 1, &v, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(host[130], 9);
  clReleaseMemObject(sub);
  clReleaseMemObject(parent);
}

struct Destroyed {
  std::vector<int> order;
};

TEST_F(BufferTest, DestructorCallbacksRunLastFirst) {
  cl_mem m = buffer(16);
  static Destroyed log;
  log = {};
  auto first = [](cl_mem, void*) { log.order.push_back(1); };
  auto second = [](cl_mem, void*) { log.order.push_back(2); };
  ASSERT_EQ(clSetMemObjectDestructorCallback(m, first, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetMemObjectDestructorCallback(m, second, nullptr), CL_SUCCESS);
  EXPECT_EQ(clSetMemObjectDestructorCallback(m, nullptr, nullptr), CL_INVALID_VALUE);
  clReleaseMemObject(m);
  EXPECT_EQ(log.order, (std::vector<int>{2, 1}));
}

TEST_F(BufferTest, ReadWriteAndTheirErrors) {
  cl_mem m = buffer(64);
  auto data = iota(32, 100);
  ASSERT_EQ(clEnqueueWriteBuffer(queue, m, CL_TRUE, 16, 32, data.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<uint8_t> expected(64, 0);
  std::copy(data.begin(), data.end(), expected.begin() + 16);
  EXPECT_EQ(readAll(m, 64), expected);
  std::vector<uint8_t> part(8);
  ASSERT_EQ(clEnqueueReadBuffer(queue, m, CL_TRUE, 20, 8, part.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(part, std::vector<uint8_t>(data.begin() + 4, data.begin() + 12));
  uint8_t b[8];
  EXPECT_EQ(clEnqueueReadBuffer(queue, m, CL_TRUE, 60, 8, b, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, 8, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, 0, b, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWriteBuffer(queue, m, CL_TRUE, 57, 8, b, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWriteBuffer(queue, m, CL_TRUE, ~size_t(0), 2, b, 0, nullptr, nullptr),
            CL_INVALID_VALUE);  // offset + size overflows
  cl_mem writeOnly = buffer(8, CL_MEM_HOST_WRITE_ONLY);
  cl_mem readOnly = buffer(8, CL_MEM_HOST_READ_ONLY);
  cl_mem none = buffer(8, CL_MEM_HOST_NO_ACCESS);
  EXPECT_EQ(clEnqueueReadBuffer(queue, writeOnly, CL_TRUE, 0, 8, b, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueWriteBuffer(queue, readOnly, CL_TRUE, 0, 8, b, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueReadBuffer(queue, none, CL_TRUE, 0, 8, b, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueWriteBuffer(queue, writeOnly, CL_TRUE, 0, 8, b, 0, nullptr, nullptr),
            CL_SUCCESS);
  // A buffer of another context.
  cl_int err;
  cl_context other = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_mem foreign = clCreateBuffer(other, 0, 8, nullptr, &err);
  EXPECT_EQ(clEnqueueReadBuffer(queue, foreign, CL_TRUE, 0, 8, b, 0, nullptr, nullptr),
            CL_INVALID_CONTEXT);
  int bogus = 0;
  auto* table = dispatchOf(queue);
  EXPECT_EQ(table->clEnqueueReadBuffer(queue, reinterpret_cast<cl_mem>(&bogus), CL_TRUE, 0, 8, b, 0,
                                       nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(table->clEnqueueWriteBuffer(reinterpret_cast<cl_command_queue>(&bogus), m, CL_TRUE, 0,
                                        8, b, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  for (cl_mem x : {m, writeOnly, readOnly, none, foreign}) clReleaseMemObject(x);
  clReleaseContext(other);
}

TEST_F(BufferTest, NonBlockingCommandsCompleteInOrder) {
  cl_mem m = buffer(4096);
  auto data = iota(4096, 7);
  std::vector<uint8_t> out(4096);
  cl_event w = nullptr, r = nullptr;
  ASSERT_EQ(clEnqueueWriteBuffer(queue, m, CL_FALSE, 0, 4096, data.data(), 0, nullptr, &w),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(queue, m, CL_FALSE, 0, 4096, out.data(), 1, &w, &r), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &r), CL_SUCCESS);
  EXPECT_EQ(out, data);
  cl_command_type t = 0;
  clGetEventInfo(w, CL_EVENT_COMMAND_TYPE, sizeof t, &t, nullptr);
  EXPECT_EQ(t, cl_command_type(CL_COMMAND_WRITE_BUFFER));
  clGetEventInfo(r, CL_EVENT_COMMAND_TYPE, sizeof t, &t, nullptr);
  EXPECT_EQ(t, cl_command_type(CL_COMMAND_READ_BUFFER));
  clReleaseEvent(w);
  clReleaseEvent(r);
  // Releasing a buffer while a command still uses it is safe.
  cl_event gate = clCreateUserEvent(context, nullptr);
  ASSERT_EQ(clEnqueueReadBuffer(queue, m, CL_FALSE, 0, 4096, out.data(), 1, &gate, &r), CL_SUCCESS);
  clReleaseMemObject(m);
  std::fill(out.begin(), out.end(), 0);
  clSetUserEventStatus(gate, CL_COMPLETE);
  ASSERT_EQ(clWaitForEvents(1, &r), CL_SUCCESS);
  EXPECT_EQ(out, data);
  clReleaseEvent(gate);
  clReleaseEvent(r);
}

TEST_F(BufferTest, CopyAndOverlap) {
  auto data = iota(256);
  cl_mem src = create(CL_MEM_COPY_HOST_PTR, 256, data.data(), CL_SUCCESS);
  cl_mem dst = buffer(256);
  cl_event e = nullptr;
  ASSERT_EQ(clEnqueueCopyBuffer(queue, src, dst, 10, 100, 50, 0, nullptr, &e), CL_SUCCESS);
  std::vector<uint8_t> expected(256, 0);
  std::copy(data.begin() + 10, data.begin() + 60, expected.begin() + 100);
  EXPECT_EQ(readAll(dst, 256), expected);
  cl_command_type t = 0;
  clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, nullptr);
  EXPECT_EQ(t, cl_command_type(CL_COMMAND_COPY_BUFFER));
  clReleaseEvent(e);
  // Within one buffer: disjoint ranges are fine, overlapping ones are not.
  ASSERT_EQ(clEnqueueCopyBuffer(queue, src, src, 0, 128, 128, 0, nullptr, nullptr), CL_SUCCESS);
  auto self = readAll(src, 256);
  EXPECT_TRUE(std::equal(self.begin(), self.begin() + 128, self.begin() + 128));
  EXPECT_EQ(clEnqueueCopyBuffer(queue, src, src, 0, 64, 128, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  // Sub-buffers of one parent that overlap in memory.
  cl_buffer_region r1{0, 256}, r2{128, 128};
  cl_int err;
  cl_mem s1 = clCreateSubBuffer(src, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
  cl_mem s2 = clCreateSubBuffer(src, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
  EXPECT_EQ(clEnqueueCopyBuffer(queue, s1, s2, 100, 0, 64, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyBuffer(queue, s1, s2, 0, 0, 64, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueCopyBuffer(queue, src, dst, 200, 0, 57, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueCopyBuffer(queue, src, dst, 0, 200, 57, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  for (cl_mem m : {s1, s2, src, dst}) clReleaseMemObject(m);
}

TEST_F(BufferTest, Fill) {
  cl_mem m = buffer(64);
  cl_uint pattern = 0xA1B2C3D4;
  ASSERT_EQ(clEnqueueFillBuffer(queue, m, &pattern, 4, 8, 32, 0, nullptr, nullptr), CL_SUCCESS);
  pattern = 0;  // the pattern was copied at enqueue time
  auto out = readAll(m, 64);
  for (size_t i = 0; i < 64; ++i) {
    uint8_t want = 0;
    if (i >= 8 && i < 40) want = uint8_t(0xA1B2C3D4u >> (8 * (i % 4)));
    EXPECT_EQ(out[i], want) << i;
  }
  uint8_t big[128];
  std::fill(big, big + 128, 0x5A);
  ASSERT_EQ(clEnqueueFillBuffer(queue, m, big, 64, 0, 64, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(readAll(m, 64), std::vector<uint8_t>(64, 0x5A));
  EXPECT_EQ(clEnqueueFillBuffer(queue, m, big, 3, 0, 6, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(queue, m, big, 256, 0, 256, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(queue, m, big, 0, 0, 8, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(queue, m, nullptr, 4, 0, 8, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(queue, m, big, 4, 2, 8, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(queue, m, big, 4, 0, 6, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(queue, m, big, 4, 60, 8, 0, nullptr, nullptr), CL_INVALID_VALUE);
  clReleaseMemObject(m);
}

// Host-side model of a rectangular copy between two byte arrays.
void modelCopy(const uint8_t* src, const size_t so[3], size_t sRow, size_t sSlice, uint8_t* dst,
               const size_t d_o[3], size_t dRow, size_t dSlice, const size_t r[3]) {
  for (size_t z = 0; z < r[2]; ++z)
    for (size_t y = 0; y < r[1]; ++y)
      for (size_t x = 0; x < r[0]; ++x)
        dst[(d_o[2] + z) * dSlice + (d_o[1] + y) * dRow + d_o[0] + x] =
            src[(so[2] + z) * sSlice + (so[1] + y) * sRow + so[0] + x];
}

TEST_F(BufferTest, RectReadWriteCopy) {
  // A 16x8x4 byte volume in the buffer, a 20x10x5 one on the host.
  const size_t bRow = 16, bSlice = 16 * 8, hRow = 20, hSlice = 20 * 10;
  auto init = iota(bSlice * 4, 1);
  cl_mem m = create(CL_MEM_COPY_HOST_PTR, init.size(), init.data(), CL_SUCCESS);
  std::vector<uint8_t> host(hSlice * 5, 0), expected(hSlice * 5, 0);
  size_t bo[3] = {3, 2, 1}, ho[3] = {1, 4, 2}, region[3] = {5, 3, 2};
  ASSERT_EQ(clEnqueueReadBufferRect(queue, m, CL_TRUE, bo, ho, region, bRow, bSlice, hRow, hSlice,
                                    host.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  modelCopy(init.data(), bo, bRow, bSlice, expected.data(), ho, hRow, hSlice, region);
  EXPECT_EQ(host, expected);
  // Write a different box back from the host, with default (0) buffer pitches:
  // row pitch = region[0], slice pitch = region[1] * row pitch.
  auto src = iota(hSlice * 5, 50);
  size_t wo[3] = {0, 0, 0}, region2[3] = {4, 4, 2};
  ASSERT_EQ(clEnqueueWriteBufferRect(queue, m, CL_TRUE, wo, ho, region2, 0, 0, hRow, hSlice,
                                     src.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  auto model = init;
  modelCopy(src.data(), ho, hRow, hSlice, model.data(), wo, 4, 16, region2);
  EXPECT_EQ(readAll(m, init.size()), model);
  // Copy between two boxes of the same buffer that do not overlap.
  size_t so[3] = {0, 0, 0}, dof[3] = {8, 0, 0}, region3[3] = {8, 8, 4};
  ASSERT_EQ(clEnqueueCopyBufferRect(queue, m, m, so, dof, region3, bRow, bSlice, bRow, bSlice, 0,
                                    nullptr, nullptr),
            CL_SUCCESS);
  modelCopy(model.data(), so, bRow, bSlice, model.data(), dof, bRow, bSlice, region3);
  EXPECT_EQ(readAll(m, init.size()), model);
  clReleaseMemObject(m);
}

TEST_F(BufferTest, RectErrors) {
  cl_mem m = buffer(16 * 8 * 4);
  uint8_t host[1024];
  size_t o[3] = {0, 0, 0}, region[3] = {4, 4, 1};
  auto read = [&](const size_t* bo, const size_t* r, size_t bRow, size_t bSlice, size_t hRow,
                  size_t hSlice) {
    return clEnqueueReadBufferRect(queue, m, CL_TRUE, bo, o, r, bRow, bSlice, hRow, hSlice, host, 0,
                                   nullptr, nullptr);
  };
  size_t zero[3] = {4, 0, 1};
  EXPECT_EQ(read(o, zero, 16, 0, 0, 0), CL_INVALID_VALUE);     // empty region
  EXPECT_EQ(read(o, region, 3, 0, 0, 0), CL_INVALID_VALUE);    // row pitch < region[0]
  EXPECT_EQ(read(o, region, 16, 40, 0, 0), CL_INVALID_VALUE);  // slice < rows * row pitch
  EXPECT_EQ(read(o, region, 16, 72, 0, 0), CL_INVALID_VALUE);  // slice not a multiple
  EXPECT_EQ(read(o, region, 16, 0, 2, 0), CL_INVALID_VALUE);   // host row pitch too small
  size_t far[3] = {0, 0, 4};
  EXPECT_EQ(read(far, region, 16, 128, 0, 0), CL_INVALID_VALUE);  // past the end
  EXPECT_EQ(read(nullptr, region, 16, 0, 0, 0), CL_INVALID_VALUE);
  EXPECT_EQ(read(o, nullptr, 16, 0, 0, 0), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueReadBufferRect(queue, m, CL_TRUE, o, o, region, 16, 0, 0, 0, nullptr, 0,
                                    nullptr, nullptr),
            CL_INVALID_VALUE);
  // Overlapping boxes of one buffer; different pitches on both sides of one buffer.
  size_t d1[3] = {2, 2, 0};
  EXPECT_EQ(
      clEnqueueCopyBufferRect(queue, m, m, o, d1, region, 16, 128, 16, 128, 0, nullptr, nullptr),
      CL_MEM_COPY_OVERLAP);
  size_t side[3] = {8, 0, 0};
  EXPECT_EQ(
      clEnqueueCopyBufferRect(queue, m, m, o, side, region, 16, 128, 16, 128, 0, nullptr, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(
      clEnqueueCopyBufferRect(queue, m, m, o, side, region, 16, 128, 32, 256, 0, nullptr, nullptr),
      CL_INVALID_VALUE);
  cl_mem ro = buffer(64, CL_MEM_HOST_READ_ONLY);
  EXPECT_EQ(clEnqueueWriteBufferRect(queue, ro, CL_TRUE, o, o, region, 0, 0, 0, 0, host, 0, nullptr,
                                     nullptr),
            CL_INVALID_OPERATION);
  clReleaseMemObject(ro);
  clReleaseMemObject(m);
}

TEST_F(BufferTest, MapAndUnmap) {
  auto host = iota(256);
  cl_mem used = create(CL_MEM_USE_HOST_PTR, 256, host.data(), CL_SUCCESS);
  cl_int err;
  void* p = clEnqueueMapBuffer(queue, used, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 64, 32, 0, nullptr,
                               nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(p, host.data() + 64);  // USE_HOST_PTR: the application's memory
  EXPECT_EQ(memValue<cl_uint>(used, CL_MEM_MAP_COUNT), 1u);
  cl_mem plain = buffer(128);
  cl_event e = nullptr;
  auto* q = static_cast<uint8_t*>(clEnqueueMapBuffer(
      queue, plain, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 128, 0, nullptr, &e, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
  for (int i = 0; i < 128; ++i) q[i] = uint8_t(255 - i);
  ASSERT_EQ(clEnqueueUnmapMemObject(queue, plain, q, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<uint8_t> expected(128);
  for (int i = 0; i < 128; ++i) expected[i] = uint8_t(255 - i);
  EXPECT_EQ(readAll(plain, 128), expected);
  EXPECT_EQ(clEnqueueUnmapMemObject(queue, plain, q, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueUnmapMemObject(queue, used, host.data(), 0, nullptr, nullptr),
            CL_INVALID_VALUE);  // never returned by a map
  ASSERT_EQ(clEnqueueUnmapMemObject(queue, used, p, 0, nullptr, nullptr), CL_SUCCESS);
  clFinish(queue);
  EXPECT_EQ(memValue<cl_uint>(used, CL_MEM_MAP_COUNT), 0u);
  // Errors.
  auto mapFails = [&](cl_mem m, cl_map_flags f, size_t off, size_t size, cl_int expected) {
    EXPECT_EQ(clEnqueueMapBuffer(queue, m, CL_TRUE, f, off, size, 0, nullptr, nullptr, &err),
              nullptr);
    EXPECT_EQ(err, expected);
  };
  mapFails(plain, CL_MAP_READ, 100, 29, CL_INVALID_VALUE);
  mapFails(plain, CL_MAP_READ, 0, 0, CL_INVALID_VALUE);
  mapFails(plain, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 8, CL_INVALID_VALUE);
  mapFails(plain, cl_map_flags(1) << 20, 0, 8, CL_INVALID_VALUE);
  cl_mem noHost = buffer(16, CL_MEM_HOST_NO_ACCESS);
  cl_mem hostWrites = buffer(16, CL_MEM_HOST_WRITE_ONLY);
  cl_mem hostReads = buffer(16, CL_MEM_HOST_READ_ONLY);
  mapFails(noHost, CL_MAP_WRITE, 0, 8, CL_INVALID_OPERATION);
  mapFails(hostWrites, CL_MAP_READ, 0, 8, CL_INVALID_OPERATION);
  mapFails(hostReads, CL_MAP_WRITE, 0, 8, CL_INVALID_OPERATION);
  for (cl_mem m : {used, plain, noHost, hostWrites, hostReads}) clReleaseMemObject(m);
  clReleaseEvent(e);
}

TEST_F(BufferTest, Migrate) {
  cl_mem a = buffer(16), b = buffer(16);
  cl_mem both[] = {a, b};
  cl_event e = nullptr;
  ASSERT_EQ(clEnqueueMigrateMemObjects(queue, 2, both, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, &e),
            CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
  EXPECT_EQ(clEnqueueMigrateMemObjects(queue, 0, both, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMigrateMemObjects(queue, 2, both, 0x100, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  int bogus = 0;
  cl_mem bad[] = {a, reinterpret_cast<cl_mem>(&bogus)};
  EXPECT_EQ(clEnqueueMigrateMemObjects(queue, 2, bad, 0, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  clReleaseEvent(e);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

}  // namespace
}  // namespace spvsim::rt::test
