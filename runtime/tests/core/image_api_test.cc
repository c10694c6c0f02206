// The image and sampler entry points at the C level: what PyOpenCL cannot reach
// (legacy constructors, handle checks, bad queues, property lists, exact device
// answers) with expectations from the OpenCL 3.0 API spec. Pixel-level behaviour is
// tested from Python with numpy (runtime/tests/programs/pyopencl_image_test.py).
#include "runtime/tests/core/cl_fixture.h"
// (cl_fixture.h first: it selects the ICD.)

#include <cstdint>
#include <vector>

namespace spvsim::rt::test {
namespace {

class ImageApiTest : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    buf = buffer(64);
    badQueue = reinterpret_cast<cl_command_queue>(&bogus);
    badContext = reinterpret_cast<cl_context>(&bogus);
    table = dispatchOf(queue);
  }
  void TearDown() override {
    clReleaseMemObject(buf);
    ClTest::TearDown();
  }
  int bogus = 0;
  cl_mem buf = nullptr;
  cl_command_queue badQueue = nullptr;
  cl_context badContext = nullptr;
  const cl_icd_dispatch* table = nullptr;
  cl_image_format rgba8{CL_RGBA, CL_UNORM_INT8};
};

TEST_F(ImageApiTest, DeviceAnswers) {
  EXPECT_EQ(deviceValue<cl_bool>(device, CL_DEVICE_IMAGE_SUPPORT), CL_TRUE);
  // Only for 2-D images created from buffers, which the device does not support: 0.
  EXPECT_EQ(deviceValue<cl_uint>(device, CL_DEVICE_IMAGE_PITCH_ALIGNMENT), 0u);
  EXPECT_EQ(deviceValue<cl_uint>(device, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT), 0u);
  EXPECT_GE(deviceValue<cl_uint>(device, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS), 64u);
  EXPECT_GE(deviceValue<size_t>(device, CL_DEVICE_IMAGE2D_MAX_WIDTH), 16384u);
  EXPECT_GE(deviceValue<size_t>(device, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE), 65536u);
}

TEST_F(ImageApiTest, SupportedFormatsProtocol) {
  cl_uint n = 0;
  ASSERT_EQ(
      clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n),
      CL_SUCCESS);
  ASSERT_GT(n, 20u);
  std::vector<cl_image_format> all(n), two(2);
  cl_uint again = 0;
  EXPECT_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, n,
                                       all.data(), &again),
            CL_SUCCESS);
  EXPECT_EQ(again, n);
  // Fewer entries than formats: the first ones, and the full count.
  EXPECT_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 2,
                                       two.data(), &again),
            CL_SUCCESS);
  EXPECT_EQ(again, n);
  EXPECT_EQ(two[1].image_channel_order, all[1].image_channel_order);
  EXPECT_EQ(two[1].image_channel_data_type, all[1].image_channel_data_type);
  EXPECT_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 4,
                                       two.data(), &n),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0,
                                       two.data(), &n),
            CL_INVALID_VALUE);
  EXPECT_EQ(table->clGetSupportedImageFormats(badContext, 0, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n),
            CL_INVALID_CONTEXT);
}

// Without SPVSIM_IMAGE_FORMATS=all the x orders, whose border colour the OpenCL C spec and
// the conformance suite disagree on, are neither reported nor created
// (runtime/image_formats.cc); image_formats_test runs every one of them with the knob.
TEST_F(ImageApiTest, XChannelOrdersOnlyWhenAsked) {
  cl_uint n = 0;
  ASSERT_EQ(
      clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n),
      CL_SUCCESS);
  std::vector<cl_image_format> all(n);
  ASSERT_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, n,
                                       all.data(), nullptr),
            CL_SUCCESS);
  for (const cl_image_format& f : all)
    for (cl_channel_order x : {CL_Rx, CL_RGx, CL_RGBx, CL_sRGBx})
      EXPECT_NE(f.image_channel_order, x) << std::hex << x;
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = 8;
  const cl_image_format rx{CL_Rx, CL_UNORM_INT8};
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateImage(context, 0, &rx, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_IMAGE_FORMAT_NOT_SUPPORTED);
}

// Without host_ptr the pitches must be 0, but a 1-D image over a buffer may name a row
// pitch (the conformance suite does; one row has no use for it): checked, then unused.
TEST_F(ImageApiTest, RowPitchOfA1DBufferImageWithoutHostPtr) {
  cl_int err = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 64 * 4 + 8, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  desc.image_width = 64;
  desc.mem_object = buffer;
  desc.image_row_pitch = 64 * 4 + 8;
  cl_mem image = clCreateImage(context, 0, &rgba8, &desc, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  size_t row = 0;
  EXPECT_EQ(clGetImageInfo(image, CL_IMAGE_ROW_PITCH, sizeof row, &row, nullptr), CL_SUCCESS);
  EXPECT_EQ(row, 64u * 4);
  EXPECT_EQ(clReleaseMemObject(image), CL_SUCCESS);
  desc.image_row_pitch = 64 * 4 - 4;  // shorter than a row
  EXPECT_EQ(clCreateImage(context, 0, &rgba8, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_DESCRIPTOR);
  desc.image_row_pitch = 64 * 4 + 2;  // not a multiple of the element
  EXPECT_EQ(clCreateImage(context, 0, &rgba8, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_DESCRIPTOR);
  desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = 8;
  desc.image_row_pitch = 64;  // any other image: 0 without host_ptr
  EXPECT_EQ(clCreateImage(context, 0, &rgba8, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_DESCRIPTOR);
  EXPECT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
}

// A pitch is a distance inside one memory object: one near 2^64 (or just past the
// largest object, CL_DEVICE_MAX_MEM_ALLOC_SIZE) is no valid descriptor value, for every
// image type and host-pointer flag; the product of valid pitches and counts past the
// largest object is CL_INVALID_IMAGE_SIZE. Before the checks a row pitch near 2^64 was
// reported as CL_INVALID_IMAGE_SIZE, a size nobody asked for.
TEST_F(ImageApiTest, PitchesNearTwoToThe64AreInvalidDescriptors) {
  const size_t maxAlloc = size_t(deviceValue<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE));
  std::vector<uint8_t> host(4096);
  cl_int err = CL_SUCCESS;
  auto create = [&](const cl_image_desc& desc, cl_mem_flags flags, void* ptr) {
    cl_mem m = clCreateImage(context, flags, &rgba8, &desc, ptr, &err);
    if (m) clReleaseMemObject(m);
    return err;
  };
  const size_t nearTop = SIZE_MAX - 3;  // 2^64 - 4: a multiple of the 4-byte pixel
  const size_t half = size_t(1) << 63;
  cl_image_desc image2d{};
  image2d.image_type = CL_MEM_OBJECT_IMAGE2D;
  image2d.image_width = 4;
  image2d.image_height = 2;
  for (cl_mem_flags flags : {CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR}) {
    for (size_t row : {nearTop, half, (maxAlloc / 4 + 1) * 4}) {
      SCOPED_TRACE(row);
      image2d.image_row_pitch = row;
      EXPECT_EQ(create(image2d, flags, host.data()), CL_INVALID_IMAGE_DESCRIPTOR);
    }
  }
  // Each pitch fits, the image does not: 2 rows of the largest object's size.
  image2d.image_row_pitch = maxAlloc / 4 * 4;
  EXPECT_EQ(create(image2d, CL_MEM_USE_HOST_PTR, host.data()), CL_INVALID_IMAGE_SIZE);
  // A large pitch that fits is taken as given.
  std::vector<uint8_t> wide(size_t(1) << 20 | 16);
  image2d.image_row_pitch = size_t(1) << 20;
  cl_mem m = clCreateImage(context, CL_MEM_USE_HOST_PTR, &rgba8, &image2d, wide.data(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  size_t row = 0;
  EXPECT_EQ(clGetImageInfo(m, CL_IMAGE_ROW_PITCH, sizeof row, &row, nullptr), CL_SUCCESS);
  EXPECT_EQ(row, size_t(1) << 20);
  EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);

  // Slice pitches of 3-D images and 2-D arrays: multiples of a valid row pitch (16).
  for (cl_mem_object_type type : {CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_IMAGE2D_ARRAY}) {
    cl_image_desc desc{};
    desc.image_type = type;
    desc.image_width = 4;
    desc.image_height = 2;
    desc.image_depth = desc.image_array_size = 2;
    for (size_t slice : {SIZE_MAX - 15, half}) {
      SCOPED_TRACE(slice);
      desc.image_slice_pitch = slice;
      EXPECT_EQ(create(desc, CL_MEM_USE_HOST_PTR, host.data()), CL_INVALID_IMAGE_DESCRIPTOR);
      desc.image_row_pitch = 16;
      EXPECT_EQ(create(desc, CL_MEM_COPY_HOST_PTR, host.data()), CL_INVALID_IMAGE_DESCRIPTOR);
      desc.image_row_pitch = nearTop;
      EXPECT_EQ(create(desc, CL_MEM_USE_HOST_PTR, host.data()), CL_INVALID_IMAGE_DESCRIPTOR);
      desc.image_row_pitch = 0;
    }
  }

  // A 1-D buffer image may name a row pitch without host_ptr: not one near 2^64.
  cl_image_desc overBuffer{};
  overBuffer.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  overBuffer.image_width = 16;
  overBuffer.mem_object = buf;
  overBuffer.image_row_pitch = nearTop;
  EXPECT_EQ(create(overBuffer, 0, nullptr), CL_INVALID_IMAGE_DESCRIPTOR);
}

TEST_F(ImageApiTest, LegacyConstructorsAndQueries) {
  cl_int err = CL_INVALID_VALUE;
  cl_mem img2 = clCreateImage2D(context, CL_MEM_READ_ONLY, &rgba8, 8, 4, 0, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem_object_type type = 0;
  EXPECT_EQ(clGetMemObjectInfo(img2, CL_MEM_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, cl_mem_object_type{CL_MEM_OBJECT_IMAGE2D});
  size_t size = 0, width = 0, height = 0;
  EXPECT_EQ(clGetMemObjectInfo(img2, CL_MEM_SIZE, sizeof size, &size, nullptr), CL_SUCCESS);
  EXPECT_EQ(size, 8u * 4 * 4);
  EXPECT_EQ(clGetImageInfo(img2, CL_IMAGE_WIDTH, sizeof width, &width, nullptr), CL_SUCCESS);
  EXPECT_EQ(clGetImageInfo(img2, CL_IMAGE_HEIGHT, sizeof height, &height, nullptr), CL_SUCCESS);
  EXPECT_EQ(width, 8u);
  EXPECT_EQ(height, 4u);
  cl_uint mips = 9;
  EXPECT_EQ(clGetImageInfo(img2, CL_IMAGE_NUM_MIP_LEVELS, sizeof mips, &mips, nullptr), CL_SUCCESS);
  EXPECT_EQ(mips, 0u);
  EXPECT_EQ(clGetImageInfo(img2, 0x7777, sizeof mips, &mips, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clReleaseMemObject(img2), CL_SUCCESS);

  // A 3-D image over the application's memory with padded rows and slices.
  std::vector<uint8_t> host(2 * 3 * 48);
  cl_mem img3 = clCreateImage3D(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &rgba8, 4, 3, 2,
                                24, 96, host.data(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  size_t row = 0, slice = 0;
  void* ptr = nullptr;
  EXPECT_EQ(clGetImageInfo(img3, CL_IMAGE_ROW_PITCH, sizeof row, &row, nullptr), CL_SUCCESS);
  EXPECT_EQ(clGetImageInfo(img3, CL_IMAGE_SLICE_PITCH, sizeof slice, &slice, nullptr), CL_SUCCESS);
  EXPECT_EQ(clGetMemObjectInfo(img3, CL_MEM_HOST_PTR, sizeof ptr, &ptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(row, 24u);
  EXPECT_EQ(slice, 96u);
  EXPECT_EQ(ptr, host.data());
  // Pixel (1, 2, 1) is at 1 * 96 + 2 * 24 + 1 * 4 bytes.
  const size_t origin[3] = {1, 2, 1}, region[3] = {1, 1, 1};
  const uint8_t pixel[4] = {9, 8, 7, 6};
  EXPECT_EQ(
      clEnqueueWriteImage(queue, img3, CL_TRUE, origin, region, 0, 0, pixel, 0, nullptr, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(host[96 + 48 + 4], 9);
  EXPECT_EQ(host[96 + 48 + 7], 6);
  EXPECT_EQ(clReleaseMemObject(img3), CL_SUCCESS);
  // A slice pitch that is not a multiple of the row pitch.
  EXPECT_EQ(clCreateImage3D(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &rgba8, 4, 3, 2, 24,
                            80, host.data(), &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_DESCRIPTOR);
}

TEST_F(ImageApiTest, CreationErrors) {
  cl_int err = CL_SUCCESS;
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = 8;
  EXPECT_EQ(table->clCreateImage(badContext, 0, &rgba8, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  EXPECT_EQ(clCreateImage(context, 0, nullptr, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  EXPECT_EQ(clCreateImage(context, 0, &rgba8, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_DESCRIPTOR);
  EXPECT_EQ(
      clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &rgba8, &desc, nullptr, &err),
      nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateImage(context, CL_MEM_COPY_HOST_PTR, &rgba8, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_HOST_PTR);
  desc.num_samples = 1;
  EXPECT_EQ(clCreateImage(context, 0, &rgba8, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_DESCRIPTOR);
  desc.num_samples = 0;
  desc.mem_object = buf;  // no cl_khr_image2d_from_buffer
  EXPECT_EQ(clCreateImage(context, 0, &rgba8, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_DESCRIPTOR);
  desc.mem_object = nullptr;
  cl_mem_properties props[] = {0x1234, 0, 0};
  EXPECT_EQ(clCreateImageWithProperties(context, props, 0, &rgba8, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
  cl_mem_properties none[] = {0};
  cl_mem img = clCreateImageWithProperties(context, none, 0, &rgba8, &desc, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  size_t propsSize = 0;
  EXPECT_EQ(clGetMemObjectInfo(img, CL_MEM_PROPERTIES, 0, nullptr, &propsSize), CL_SUCCESS);
  EXPECT_EQ(propsSize, sizeof(cl_mem_properties));
  EXPECT_EQ(clReleaseMemObject(img), CL_SUCCESS);
}

TEST_F(ImageApiTest, CommandsCheckHandles) {
  // A buffer is not an image.
  size_t width;
  EXPECT_EQ(clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof width, &width, nullptr),
            CL_INVALID_MEM_OBJECT);
  size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
  char host[64];
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(
      clEnqueueReadImage(queue, buf, CL_TRUE, origin, region, 0, 0, host, 0, nullptr, nullptr),
      CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(
      clEnqueueWriteImage(queue, buf, CL_TRUE, origin, region, 0, 0, host, 0, nullptr, nullptr),
      CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueCopyImage(queue, buf, buf, origin, origin, region, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueCopyImageToBuffer(queue, buf, buf, origin, region, 0, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueCopyBufferToImage(queue, buf, buf, 0, origin, region, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  size_t pitch;
  EXPECT_EQ(clEnqueueMapImage(queue, buf, CL_TRUE, CL_MAP_READ, origin, region, &pitch, nullptr, 0,
                              nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(table->clEnqueueReadImage(badQueue, buf, CL_TRUE, origin, region, 0, 0, host, 0,
                                      nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  // An image is not a buffer.
  cl_mem img = clCreateImage2D(context, CL_MEM_READ_WRITE, &rgba8, 4, 4, 0, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(clEnqueueReadBuffer(queue, img, CL_TRUE, 0, 4, host, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  // Maps of 3-D images need the slice pitch; a 2-D image's is 0.
  size_t slice = 99;
  void* p = clEnqueueMapImage(queue, img, CL_TRUE, CL_MAP_READ, origin, region, &pitch, &slice, 0,
                              nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(pitch, 16u);
  EXPECT_EQ(slice, 0u);
  EXPECT_EQ(clEnqueueUnmapMemObject(queue, img, p, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueMapImage(queue, img, CL_TRUE, CL_MAP_READ, origin, region, nullptr, nullptr, 0,
                              nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // The fill colour is required.
  EXPECT_EQ(clEnqueueFillImage(queue, img, nullptr, origin, region, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(img), CL_SUCCESS);
}

TEST_F(ImageApiTest, Samplers) {
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(table->clCreateSampler(badContext, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  EXPECT_EQ(clCreateSampler(context, CL_FALSE, CL_ADDRESS_CLAMP, 0x9999, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // Properties: the defaults are normalized coordinates, CL_ADDRESS_CLAMP, nearest.
  cl_sampler_properties props[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  cl_sampler s = clCreateSamplerWithProperties(context, props, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_bool normalized = CL_FALSE;
  cl_addressing_mode addressing = 0;
  cl_filter_mode filter = 0;
  EXPECT_EQ(
      clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof normalized, &normalized, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(
      clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof addressing, &addressing, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof filter, &filter, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(normalized, CL_TRUE);
  EXPECT_EQ(addressing, cl_addressing_mode{CL_ADDRESS_CLAMP});
  EXPECT_EQ(filter, cl_filter_mode{CL_FILTER_LINEAR});
  cl_sampler_properties back[3] = {};
  size_t size = 0;
  EXPECT_EQ(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof back, back, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof back);
  EXPECT_EQ(back[1], cl_sampler_properties{CL_FILTER_LINEAR});
  EXPECT_EQ(clRetainSampler(s), CL_SUCCESS);
  cl_uint refs = 0;
  EXPECT_EQ(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(refs, 2u);
  EXPECT_EQ(clReleaseSampler(s), CL_SUCCESS);
  EXPECT_EQ(clReleaseSampler(s), CL_SUCCESS);
  EXPECT_EQ(clReleaseSampler(s), CL_INVALID_SAMPLER);  // released: the handle is dead
  // An unknown property, and one given twice.
  cl_sampler_properties bad[] = {0x7777, 1, 0};
  EXPECT_EQ(clCreateSamplerWithProperties(context, bad, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE,
                                   CL_FILTER_NEAREST, 0};
  EXPECT_EQ(clCreateSamplerWithProperties(context, twice, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  auto badSampler = reinterpret_cast<cl_sampler>(&bogus);
  EXPECT_EQ(table->clRetainSampler(badSampler), CL_INVALID_SAMPLER);
  EXPECT_EQ(table->clGetSamplerInfo(badSampler, CL_SAMPLER_CONTEXT, 0, nullptr, nullptr),
            CL_INVALID_SAMPLER);
}

}  // namespace
}  // namespace spvsim::rt::test
