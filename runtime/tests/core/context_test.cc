// Contexts through the loader: properties, device lists, reference counts,
// destructor callbacks, and the errors of OpenCL 3.0's clCreateContext* tables.
#include "runtime/tests/core/cl_fixture.h"
// (cl_fixture.h first: it selects the ICD.)

namespace spvsim::rt::test {
namespace {

template <class T>
T contextValue(cl_context c, cl_context_info param) {
  T v{};
  EXPECT_EQ(clGetContextInfo(c, param, sizeof v, &v, nullptr), CL_SUCCESS);
  return v;
}

TEST(Context, CreateWithPlatformProperty) {
  cl_device_id d = spvsimDevice();
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(spvsimPlatform()), 0};
  cl_int err = CL_INVALID_VALUE;
  cl_device_id twice[] = {d, d};  // duplicates are ignored
  cl_context c = clCreateContext(props, 2, twice, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(contextValue<cl_uint>(c, CL_CONTEXT_NUM_DEVICES), 1u);
  EXPECT_EQ(contextValue<cl_device_id>(c, CL_CONTEXT_DEVICES), d);
  EXPECT_EQ(contextValue<cl_uint>(c, CL_CONTEXT_REFERENCE_COUNT), 1u);
  size_t size = 0;
  ASSERT_EQ(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  ASSERT_EQ(size, sizeof props);
  cl_context_properties back[3];
  ASSERT_EQ(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, size, back, nullptr), CL_SUCCESS);
  EXPECT_EQ(std::vector<cl_context_properties>(back, back + 3),
            std::vector<cl_context_properties>(props, props + 3));
  EXPECT_EQ(clRetainContext(c), CL_SUCCESS);
  EXPECT_EQ(contextValue<cl_uint>(c, CL_CONTEXT_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseContext(c), CL_SUCCESS);
  EXPECT_EQ(clReleaseContext(c), CL_SUCCESS);
}

TEST(Context, NoPropertiesMeansEmptyList) {
  cl_device_id d = spvsimDevice();
  cl_int err;
  cl_context c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  size_t size = 99;
  EXPECT_EQ(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(clGetContextInfo(c, 0xdead, 0, nullptr, &size), CL_INVALID_VALUE);
  cl_uint small;
  EXPECT_EQ(clGetContextInfo(c, CL_CONTEXT_DEVICES, 1, &small, nullptr), CL_INVALID_VALUE);
  clReleaseContext(c);
}

TEST(Context, CreateErrors) {
  cl_device_id d = spvsimDevice();
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateContext(nullptr, 0, &d, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateContext(nullptr, 1, nullptr, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  int data;
  EXPECT_EQ(clCreateContext(nullptr, 1, &d, nullptr, &data, &err), nullptr);  // data, no callback
  EXPECT_EQ(err, CL_INVALID_VALUE);
  cl_context_properties unknown[] = {0x7777, 1, 0};
  EXPECT_EQ(clCreateContext(unknown, 1, &d, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
  auto p = reinterpret_cast<cl_context_properties>(spvsimPlatform());
  cl_context_properties repeated[] = {CL_CONTEXT_PLATFORM, p, CL_CONTEXT_PLATFORM, p, 0};
  EXPECT_EQ(clCreateContext(repeated, 1, &d, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
  // A bad device or platform reaches the ICD only through its dispatch table.
  int bogus = 0;
  auto* table = dispatchOf(d);
  cl_device_id bad = reinterpret_cast<cl_device_id>(&bogus);
  EXPECT_EQ(table->clCreateContext(nullptr, 1, &bad, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_DEVICE);
  cl_context_properties badPlatform[] = {CL_CONTEXT_PLATFORM,
                                         reinterpret_cast<cl_context_properties>(&bogus), 0};
  EXPECT_EQ(table->clCreateContext(badPlatform, 1, &d, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PLATFORM);
  cl_context bc = reinterpret_cast<cl_context>(&bogus);
  EXPECT_EQ(table->clRetainContext(bc), CL_INVALID_CONTEXT);
  EXPECT_EQ(table->clReleaseContext(bc), CL_INVALID_CONTEXT);
  EXPECT_EQ(table->clGetContextInfo(bc, CL_CONTEXT_NUM_DEVICES, 0, nullptr, nullptr),
            CL_INVALID_CONTEXT);
}

TEST(Context, FromType) {
  auto p = reinterpret_cast<cl_context_properties>(spvsimPlatform());
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, p, 0};
  cl_int err;
  for (cl_device_type t : std::vector<cl_device_type>{CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ALL,
                                                      CL_DEVICE_TYPE_DEFAULT}) {
    cl_context c = clCreateContextFromType(props, t, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(contextValue<cl_device_id>(c, CL_CONTEXT_DEVICES), spvsimDevice());
    clReleaseContext(c);
  }
  EXPECT_EQ(clCreateContextFromType(props, CL_DEVICE_TYPE_CPU, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_DEVICE_NOT_FOUND);
  EXPECT_EQ(clCreateContextFromType(props, cl_device_type(1) << 30, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_DEVICE_TYPE);
}

struct Log {
  std::vector<int> order;
  cl_context seen = nullptr;
};

TEST(Context, DestructorCallbacksRunLastFirst) {
  cl_device_id d = spvsimDevice();
  cl_int err;
  cl_context c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  static Log log;
  log = {};
  auto first = [](cl_context ctx, void*) {
    log.order.push_back(1);
    log.seen = ctx;
  };
  auto second = [](cl_context, void*) { log.order.push_back(2); };
  ASSERT_EQ(clSetContextDestructorCallback(c, first, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetContextDestructorCallback(c, second, nullptr), CL_SUCCESS);
  EXPECT_EQ(clSetContextDestructorCallback(c, nullptr, nullptr), CL_INVALID_VALUE);
  // A queue keeps the context alive after the application's release.
  cl_command_queue q = clCreateCommandQueueWithProperties(c, d, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(clReleaseContext(c), CL_SUCCESS);
  EXPECT_TRUE(log.order.empty());
  EXPECT_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
  EXPECT_EQ(log.order, (std::vector<int>{2, 1}));
  EXPECT_EQ(log.seen, c);
}

}  // namespace
}  // namespace spvsim::rt::test
