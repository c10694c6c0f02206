// Pipe objects through the ICD loader: clCreatePipe's errors (OpenCL 3.0 API, "Creating
// Pipe Objects"), clGetPipeInfo, clGetMemObjectInfo's CL_MEM_OBJECT_PIPE, the device's
// pipe limits, and that the host cannot read or write a pipe (no command takes one).
// Kernels reading and writing pipes run in runtime/tests/programs/pyopencl_pipes.py.
#include "runtime/tests/core/cl_fixture.h"

namespace spvsim::rt::test {
namespace {

class PipeTest : public ClTest {
 protected:
  cl_mem pipe(cl_mem_flags flags, cl_uint packet, cl_uint count, cl_int* err) {
    return clCreatePipe(context, flags, packet, count, nullptr, err);
  }
};

TEST_F(PipeTest, CreateAndQuery) {
  cl_int err = CL_INVALID_VALUE;
  cl_mem p = pipe(0, 16, 100, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_uint v = 0;
  EXPECT_EQ(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, sizeof v, &v, nullptr), CL_SUCCESS);
  EXPECT_EQ(v, 16u);
  EXPECT_EQ(clGetPipeInfo(p, CL_PIPE_MAX_PACKETS, sizeof v, &v, nullptr), CL_SUCCESS);
  EXPECT_EQ(v, 100u);
  size_t size = 99;
  EXPECT_EQ(clGetPipeInfo(p, CL_PIPE_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u);  // created with NULL properties
  EXPECT_EQ(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, 1, &v, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetPipeInfo(p, 0x1234, sizeof v, &v, nullptr), CL_INVALID_VALUE);
  cl_mem_object_type type = 0;
  EXPECT_EQ(clGetMemObjectInfo(p, CL_MEM_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, cl_mem_object_type(CL_MEM_OBJECT_PIPE));
  cl_mem_flags flags = 0;
  EXPECT_EQ(clGetMemObjectInfo(p, CL_MEM_FLAGS, sizeof flags, &flags, nullptr), CL_SUCCESS);
  EXPECT_EQ(flags, cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS));  // 0's default
  cl_context ctx = nullptr;
  EXPECT_EQ(clGetMemObjectInfo(p, CL_MEM_CONTEXT, sizeof ctx, &ctx, nullptr), CL_SUCCESS);
  EXPECT_EQ(ctx, context);
  EXPECT_EQ(clReleaseMemObject(p), CL_SUCCESS);
}

TEST_F(PipeTest, CreateErrors) {
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(pipe(0, 0, 4, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PIPE_SIZE);
  EXPECT_EQ(pipe(0, 4, 0, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PIPE_SIZE);
  cl_uint maxPacket = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof maxPacket, &maxPacket,
                            nullptr),
            CL_SUCCESS);
  EXPECT_EQ(pipe(0, maxPacket + 1, 4, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PIPE_SIZE);
  cl_mem ok = pipe(CL_MEM_READ_WRITE, maxPacket, 4, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  clReleaseMemObject(ok);
  for (cl_mem_flags bad :
       {cl_mem_flags(CL_MEM_READ_ONLY), cl_mem_flags(CL_MEM_WRITE_ONLY),
        cl_mem_flags(CL_MEM_USE_HOST_PTR), cl_mem_flags(CL_MEM_HOST_READ_ONLY)}) {
    EXPECT_EQ(pipe(bad, 4, 4, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_VALUE);
  }
  cl_pipe_properties props[] = {1, 0};
  EXPECT_EQ(clCreatePipe(context, 0, 4, 4, props, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreatePipe(nullptr, 0, 4, 4, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  cl_mem buf = buffer(64);
  cl_uint v = 0;
  EXPECT_EQ(clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, sizeof v, &v, nullptr), CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(buf);
}

// OpenCL has no command that reads or writes a pipe from the host: buffer commands
// refuse it as not a buffer.
TEST_F(PipeTest, HostCannotAccessAPipe) {
  cl_int err = CL_SUCCESS;
  cl_mem p = pipe(0, 4, 8, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  int data[8] = {};
  EXPECT_EQ(clEnqueueReadBuffer(queue, p, CL_TRUE, 0, 4, data, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueWriteBuffer(queue, p, CL_TRUE, 0, 4, data, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueMapBuffer(queue, p, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(p);
}

TEST_F(PipeTest, DeviceLimits) {
  cl_bool support = CL_FALSE;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_PIPE_SUPPORT, sizeof support, &support, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(support, CL_TRUE);
  // The OpenCL 3.0 minimums for a device that supports pipes.
  for (auto [param, minimum] : {std::pair{CL_DEVICE_MAX_PIPE_ARGS, 16u},
                                std::pair{CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, 1u},
                                std::pair{CL_DEVICE_PIPE_MAX_PACKET_SIZE, 1024u}}) {
    cl_uint v = 0;
    ASSERT_EQ(clGetDeviceInfo(device, param, sizeof v, &v, nullptr), CL_SUCCESS);
    EXPECT_GE(v, minimum) << param;
  }
}

}  // namespace
}  // namespace spvsim::rt::test
