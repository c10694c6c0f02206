// Every image format the device reports, for every image type, through creation (owned
// storage, CL_MEM_COPY_HOST_PTR, CL_MEM_USE_HOST_PTR, a 1-D image over a buffer), write,
// read, fill, copy (image to image, image <-> buffer) and map, compared byte by byte
// with a host model written from the OpenCL 3.0 API spec: the element size of each
// channel order and type, pixels at x * element + y * row pitch + z * slice pitch, and
// clEnqueueFillImage's colour converted as write_image* converts it (OpenCL C
// "Conversion Rules"). Every host buffer is exactly as large as the spec says, so a
// pixel moved past one is caught under --config=asan (the ICD is built with the test).
//
// The element sizes are those of the channel order table as the OpenCL 1.1-2.2 specs
// group it ("CL_R, CL_Rx or CL_A", "CL_RG, CL_RGx or CL_RA") and the conformance suite
// sizes them: CL_Rx stores one channel, CL_RGx two; CL_RGBx and CL_sRGBx four (CL_RGBx
// only with the packed types, whose element is the packed value).
#include "runtime/tests/core/cl_fixture.h"
// (cl_fixture.h first: it selects the ICD.)

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>

namespace spvsim::rt::test {
namespace {

// --- the host model ---------------------------------------------------------------

bool isPackedType(cl_channel_type t) {
  return t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010;
}

// Bytes of one channel value; of the whole element for the packed types.
size_t typeBytes(cl_channel_type t) {
  switch (t) {
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8:
      return 1;
    case CL_SNORM_INT16:
    case CL_UNORM_INT16:
    case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT:
    case CL_UNORM_SHORT_565:
    case CL_UNORM_SHORT_555:
      return 2;
    default:
      return 4;  // 32-bit channels, CL_UNORM_INT_101010
  }
}

// The component (0..3 = r, g, b, a) each stored channel holds, in memory order; -1 for
// an ignored channel. INTENSITY and LUMINANCE store the red component.
std::vector<int> storedComponents(cl_channel_order o) {
  switch (o) {
    case CL_R:
    case CL_Rx:
    case CL_INTENSITY:
    case CL_LUMINANCE:
      return {0};
    case CL_A:
      return {3};
    case CL_RG:
    case CL_RGx:
      return {0, 1};
    case CL_RA:
      return {0, 3};
    case CL_sRGB:
      return {0, 1, 2};
    case CL_sRGBx:
      return {0, 1, 2, -1};
    case CL_RGBA:
    case CL_sRGBA:
      return {0, 1, 2, 3};
    case CL_BGRA:
    case CL_sBGRA:
      return {2, 1, 0, 3};
    case CL_ARGB:
      return {3, 0, 1, 2};
    case CL_ABGR:
      return {3, 2, 1, 0};
    default:
      return {};  // CL_RGB, CL_RGBx: packed types only
  }
}

size_t elementSize(const cl_image_format& f) {
  if (isPackedType(f.image_channel_data_type)) return typeBytes(f.image_channel_data_type);
  return storedComponents(f.image_channel_order).size() * typeBytes(f.image_channel_data_type);
}

bool isSrgb(cl_channel_order o) {
  return o == CL_sRGB || o == CL_sRGBx || o == CL_sRGBA || o == CL_sBGRA;
}

// The OpenCL C spec's linear -> sRGB conversion (write_imagef on sRGB images).
double linearToSrgb(double l) {
  l = std::clamp(l, 0.0, 1.0);
  return l < 0.0031308 ? 12.92 * l : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055;
}

// IEEE binary16 of a float exactly representable in it (the colours below are).
uint16_t exactHalf(float v) {
  if (v == 0.0f) return 0;
  int e = 0;
  double m = std::frexp(std::fabs(v), &e);  // v = m * 2^e, m in [0.5, 1)
  uint16_t bits = uint16_t(((e - 1 + 15) << 10) | uint16_t((m * 2 - 1) * 1024));
  return v < 0 ? uint16_t(bits | 0x8000) : bits;
}

// convert_T_sat_rte of f * scale.
int64_t normalized(double f, double scale, int64_t lo, int64_t hi) {
  return std::clamp<int64_t>(int64_t(std::nearbyint(f * scale)), lo, hi);
}

void putLittleEndian(uint8_t* p, size_t bytes, uint64_t v) {
  for (size_t i = 0; i < bytes; ++i) p[i] = uint8_t(v >> (8 * i));
}

// The fill colours: chosen so that every channel type rounds or saturates somewhere.
constexpr std::array<float, 4> kFloatColor = {1.0f, 0.0f, 0.5f, 0.25f};
constexpr std::array<int32_t, 4> kIntColor = {-5, 300, 7, -70000};
constexpr std::array<uint32_t, 4> kUintColor = {5, 300, 7, 70000};

bool isSignedInt(cl_channel_type t) {
  return t == CL_SIGNED_INT8 || t == CL_SIGNED_INT16 || t == CL_SIGNED_INT32;
}
bool isUnsignedInt(cl_channel_type t) {
  return t == CL_UNSIGNED_INT8 || t == CL_UNSIGNED_INT16 || t == CL_UNSIGNED_INT32;
}

// One stored channel of the fill colour's component c.
uint64_t channelValue(cl_channel_type t, bool srgb, int c) {
  if (isSignedInt(t)) {
    const int64_t v = kIntColor[c];
    if (t == CL_SIGNED_INT8) return uint64_t(std::clamp<int64_t>(v, -128, 127));
    if (t == CL_SIGNED_INT16) return uint64_t(std::clamp<int64_t>(v, -32768, 32767));
    return uint64_t(v);
  }
  if (isUnsignedInt(t)) {
    const uint64_t v = kUintColor[c];
    if (t == CL_UNSIGNED_INT8) return std::min<uint64_t>(v, 255);
    if (t == CL_UNSIGNED_INT16) return std::min<uint64_t>(v, 65535);
    return v;
  }
  double f = kFloatColor[c];
  if (srgb && c < 3) f = linearToSrgb(f);
  switch (t) {
    case CL_UNORM_INT8:
      return uint64_t(normalized(f, 255, 0, 255));
    case CL_UNORM_INT16:
      return uint64_t(normalized(f, 65535, 0, 65535));
    case CL_SNORM_INT8:
      return uint64_t(normalized(f, 127, -128, 127));
    case CL_SNORM_INT16:
      return uint64_t(normalized(f, 32767, -32768, 32767));
    case CL_HALF_FLOAT:
      return exactHalf(float(f));
    default: {  // CL_FLOAT
      uint32_t bits;
      const float v = float(f);
      std::memcpy(&bits, &v, 4);
      return bits;
    }
  }
}

// The fill colour as one stored element, and which of its bytes the spec defines (an
// ignored channel's are not).
struct FillPixel {
  std::vector<uint8_t> bytes, defined;
};

FillPixel fillPixel(const cl_image_format& f) {
  const cl_channel_type t = f.image_channel_data_type;
  FillPixel p{std::vector<uint8_t>(elementSize(f)), std::vector<uint8_t>(elementSize(f), 1)};
  if (isPackedType(t)) {
    // Fields r, g, b from the most significant down: 5-6-5, x-5-5-5, x-10-10-10.
    const std::array<int, 3> bits = t == CL_UNORM_SHORT_565   ? std::array{5, 6, 5}
                                    : t == CL_UNORM_SHORT_555 ? std::array{5, 5, 5}
                                                              : std::array{10, 10, 10};
    const std::array<int, 3> shifts = {bits[1] + bits[2], bits[2], 0};
    uint64_t v = 0;
    for (int c = 0; c < 3; ++c) {
      const int64_t max = (int64_t{1} << bits[c]) - 1;
      v |= uint64_t(normalized(kFloatColor[c], double(max), 0, max)) << shifts[c];
    }
    putLittleEndian(p.bytes.data(), p.bytes.size(), v);
    return p;
  }
  const size_t bytes = typeBytes(t);
  const std::vector<int> comps = storedComponents(f.image_channel_order);
  for (size_t i = 0; i < comps.size(); ++i) {
    if (comps[i] < 0) {
      std::fill_n(p.defined.begin() + i * bytes, bytes, 0);
      continue;
    }
    putLittleEndian(p.bytes.data() + i * bytes, bytes,
                    channelValue(t, isSrgb(f.image_channel_order), comps[i]));
  }
  return p;
}

// --- image types --------------------------------------------------------------------

constexpr size_t kW = 5, kH = 3, kD = 2, kLayers = 2;

struct Shape {
  cl_mem_object_type type;
  const char* name;
  std::array<size_t, 3> extent;  // the API's (x, y, z) coordinates
  size_t rowsPerSlice;           // storage rows between slices
  bool hasSlices;                // a slice pitch (1-D arrays: one row per layer)
};

const std::vector<Shape>& shapes() {
  static const std::vector<Shape> k = {
      {CL_MEM_OBJECT_IMAGE1D, "1D", {kW, 1, 1}, 1, false},
      {CL_MEM_OBJECT_IMAGE1D_BUFFER, "1D buffer", {kW, 1, 1}, 1, false},
      {CL_MEM_OBJECT_IMAGE1D_ARRAY, "1D array", {kW, kLayers, 1}, 1, true},
      {CL_MEM_OBJECT_IMAGE2D, "2D", {kW, kH, 1}, kH, false},
      {CL_MEM_OBJECT_IMAGE2D_ARRAY, "2D array", {kW, kH, kLayers}, kH, true},
      {CL_MEM_OBJECT_IMAGE3D, "3D", {kW, kH, kD}, kH, true},
  };
  return k;
}

cl_image_desc descOf(const Shape& s, size_t rowPitch = 0, size_t slicePitch = 0,
                     cl_mem buffer = nullptr) {
  cl_image_desc d{};
  d.image_type = s.type;
  d.image_width = kW;
  switch (s.type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      d.image_array_size = kLayers;
      break;
    case CL_MEM_OBJECT_IMAGE2D:
      d.image_height = kH;
      break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      d.image_height = kH;
      d.image_array_size = kLayers;
      break;
    case CL_MEM_OBJECT_IMAGE3D:
      d.image_height = kH;
      d.image_depth = kD;
      break;
    default:
      break;
  }
  d.image_row_pitch = rowPitch;
  d.image_slice_pitch = slicePitch;
  d.mem_object = buffer;
  return d;
}

// Pixels of an image in the model: tightly packed in the API's coordinates.
struct Pixels {
  size_t element;
  std::array<size_t, 3> extent;
  std::vector<uint8_t> bytes;
  uint8_t* at(size_t x, size_t y, size_t z) {
    return bytes.data() + ((z * extent[1] + y) * extent[0] + x) * element;
  }
};

// Deterministic bytes that differ from pixel to pixel and from call to call.
std::vector<uint8_t> pattern(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  uint32_t s = seed * 2654435761u + 1;
  for (uint8_t& b : v) {
    s = s * 1664525u + 1013904223u;
    b = uint8_t(s >> 24);
  }
  return v;
}

void forBox(const size_t* origin, const size_t* region,
            const std::function<void(size_t, size_t, size_t, size_t, size_t, size_t)>& f) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      for (size_t x = 0; x < region[0]; ++x)
        f(origin[0] + x, origin[1] + y, origin[2] + z, x, y, z);
}

// --- the test -----------------------------------------------------------------------

class ImageFormatsTest : public ClTest {
 protected:
  std::vector<cl_image_format> reported(cl_mem_flags flags, cl_mem_object_type type) {
    cl_uint n = 0;
    EXPECT_EQ(clGetSupportedImageFormats(context, flags, type, 0, nullptr, &n), CL_SUCCESS);
    std::vector<cl_image_format> v(n);
    EXPECT_EQ(clGetSupportedImageFormats(context, flags, type, n, v.data(), nullptr), CL_SUCCESS);
    return v;
  }

  // A host layout with a padding pixel after each row and a padding row after each
  // slice, and a buffer exactly as large as clCreateImage requires of host_ptr.
  struct HostLayout {
    size_t row, slice;
    std::vector<uint8_t> bytes;
  };
  HostLayout paddedLayout(const Shape& s, size_t element, const std::vector<uint8_t>& tight) {
    HostLayout h;
    h.row = (kW + 1) * element;
    h.slice = s.hasSlices ? h.row * (s.rowsPerSlice + 1) : 0;
    // Slices: a 1-D array's layers (its y), else z.
    const size_t count = s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? kLayers : s.extent[2];
    h.bytes.assign(s.hasSlices ? h.slice * count : h.row * s.rowsPerSlice, 0xEE);
    for (size_t z = 0; z < s.extent[2]; ++z)
      for (size_t y = 0; y < s.extent[1]; ++y) {
        // API coordinates to host bytes: 1-D arrays step layers (y) by the slice pitch.
        const size_t at =
            s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? y * h.slice : z * h.slice + y * h.row;
        std::memcpy(h.bytes.data() + at,
                    tight.data() + (z * s.extent[1] + y) * s.extent[0] * element, kW * element);
      }
    return h;
  }

  cl_mem create(const Shape& s, const cl_image_format& f, cl_mem_flags flags,
                const cl_image_desc& d, void* host) {
    cl_int err = CL_INVALID_VALUE;
    cl_mem m = clCreateImage(context, flags, &f, &d, host, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return m;
  }

  // The whole image read back tightly (row and slice pitch 0).
  std::vector<uint8_t> readAll(cl_mem img, const Shape& s, size_t element) {
    std::vector<uint8_t> out(s.extent[0] * s.extent[1] * s.extent[2] * element);
    const size_t origin[3] = {0, 0, 0};
    EXPECT_EQ(clEnqueueReadImage(queue, img, CL_TRUE, origin, s.extent.data(), 0, 0, out.data(), 0,
                                 nullptr, nullptr),
              CL_SUCCESS);
    return out;
  }

  void checkFormat(const Shape& s, const cl_image_format& f, uint32_t seed);
  void checkFill(const Shape& s, const cl_image_format& f, cl_mem img, Pixels& model);
  void checkCopies(const Shape& s, const cl_image_format& f, cl_mem img, Pixels& model,
                   uint32_t seed);
  void checkMaps(const Shape& s, cl_mem img, Pixels& model, uint32_t seed);
};

// A box that leaves a border where the extent allows: origin 1 and region extent - 2
// along x, and from 1 to the end along y and z where they have more than one pixel.
void innerBox(const Shape& s, size_t* origin, size_t* region) {
  origin[0] = 1;
  region[0] = s.extent[0] - 2;
  for (int i = 1; i < 3; ++i) {
    origin[i] = s.extent[i] > 1 ? 1 : 0;
    region[i] = s.extent[i] - origin[i];
  }
}

void ImageFormatsTest::checkFill(const Shape& s, const cl_image_format& f, cl_mem img,
                                 Pixels& model) {
  size_t origin[3], region[3];
  innerBox(s, origin, region);
  const void* color = isSignedInt(f.image_channel_data_type)     ? (const void*)kIntColor.data()
                      : isUnsignedInt(f.image_channel_data_type) ? (const void*)kUintColor.data()
                                                                 : (const void*)kFloatColor.data();
  ASSERT_EQ(clEnqueueFillImage(queue, img, color, origin, region, 0, nullptr, nullptr), CL_SUCCESS);
  const FillPixel fill = fillPixel(f);
  std::vector<uint8_t> got = readAll(img, s, model.element);
  Pixels back{model.element, model.extent, got};
  // Pixels outside the box keep their bytes; inside, the defined bytes are the colour's.
  forBox(origin, region, [&](size_t x, size_t y, size_t z, size_t, size_t, size_t) {
    uint8_t* want = model.at(x, y, z);
    const uint8_t* have = back.at(x, y, z);
    for (size_t i = 0; i < model.element; ++i) want[i] = fill.defined[i] ? fill.bytes[i] : have[i];
  });
  ASSERT_EQ(got, model.bytes) << "after clEnqueueFillImage";
}

void ImageFormatsTest::checkCopies(const Shape& s, const cl_image_format& f, cl_mem img,
                                   Pixels& model, uint32_t seed) {
  const size_t element = model.element;
  size_t origin[3], region[3];
  innerBox(s, origin, region);
  const size_t boxBytes = region[0] * region[1] * region[2] * element;
  const size_t zero[3] = {0, 0, 0};

  // Image to image: the box of `img` to the origin of a second image.
  if (s.type != CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    cl_mem other = create(s, f, CL_MEM_READ_WRITE, descOf(s), nullptr);
    ASSERT_NE(other, nullptr);
    Pixels otherModel{element, s.extent, pattern(model.bytes.size(), seed + 1)};
    ASSERT_EQ(clEnqueueWriteImage(queue, other, CL_TRUE, zero, s.extent.data(), 0, 0,
                                  otherModel.bytes.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clEnqueueCopyImage(queue, img, other, origin, zero, region, 0, nullptr, nullptr),
              CL_SUCCESS);
    forBox(origin, region, [&](size_t x, size_t y, size_t z, size_t i, size_t j, size_t k) {
      std::memcpy(otherModel.at(i, j, k), model.at(x, y, z), element);
    });
    EXPECT_EQ(readAll(other, s, element), otherModel.bytes) << "after clEnqueueCopyImage";
    EXPECT_EQ(clReleaseMemObject(other), CL_SUCCESS);
  }

  // Image to buffer: the box, tightly packed, at an offset of one element.
  cl_mem buf = buffer(boxBytes + element);
  ASSERT_EQ(
      clEnqueueCopyImageToBuffer(queue, img, buf, origin, region, element, 0, nullptr, nullptr),
      CL_SUCCESS);
  std::vector<uint8_t> packed(boxBytes);
  ASSERT_EQ(clEnqueueReadBuffer(queue, buf, CL_TRUE, element, boxBytes, packed.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  std::vector<uint8_t> want(boxBytes);
  forBox(origin, region, [&](size_t x, size_t y, size_t z, size_t i, size_t j, size_t k) {
    std::memcpy(want.data() + ((k * region[1] + j) * region[0] + i) * element, model.at(x, y, z),
                element);
  });
  EXPECT_EQ(packed, want) << "after clEnqueueCopyImageToBuffer";

  // Buffer to image: new bytes into the box.
  const std::vector<uint8_t> fresh = pattern(boxBytes, seed + 2);
  ASSERT_EQ(clEnqueueWriteBuffer(queue, buf, CL_TRUE, element, boxBytes, fresh.data(), 0, nullptr,
                                 nullptr),
            CL_SUCCESS);
  ASSERT_EQ(
      clEnqueueCopyBufferToImage(queue, buf, img, element, origin, region, 0, nullptr, nullptr),
      CL_SUCCESS);
  forBox(origin, region, [&](size_t x, size_t y, size_t z, size_t i, size_t j, size_t k) {
    std::memcpy(model.at(x, y, z), fresh.data() + ((k * region[1] + j) * region[0] + i) * element,
                element);
  });
  EXPECT_EQ(readAll(img, s, element), model.bytes) << "after clEnqueueCopyBufferToImage";
  EXPECT_EQ(clReleaseMemObject(buf), CL_SUCCESS);
}

void ImageFormatsTest::checkMaps(const Shape& s, cl_mem img, Pixels& model, uint32_t seed) {
  const size_t element = model.element;
  size_t origin[3], region[3];
  innerBox(s, origin, region);
  size_t row = 0, slice = 0;
  cl_int err = CL_INVALID_VALUE;
  auto* p = static_cast<uint8_t*>(clEnqueueMapImage(queue, img, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                                    origin, region, &row, &slice, 0, nullptr,
                                                    nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_GE(row, region[0] * element);
  // The API steps its second coordinate by the row pitch and the third by the slice
  // pitch; a 1-D array's layers (its second coordinate) are its slices.
  const size_t stepY = s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice : row;
  const std::vector<uint8_t> fresh = pattern(region[0] * region[1] * region[2] * element, seed + 3);
  forBox(origin, region, [&](size_t x, size_t y, size_t z, size_t i, size_t j, size_t k) {
    uint8_t* mapped = p + k * slice + j * stepY + i * element;
    EXPECT_EQ(0, std::memcmp(mapped, model.at(x, y, z), element))
        << "mapped pixel (" << x << ", " << y << ", " << z << ")";
    const uint8_t* next = fresh.data() + ((k * region[1] + j) * region[0] + i) * element;
    std::memcpy(mapped, next, element);
    std::memcpy(model.at(x, y, z), next, element);
  });
  ASSERT_EQ(clEnqueueUnmapMemObject(queue, img, p, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(readAll(img, s, element), model.bytes) << "after writing through a map";
}

void ImageFormatsTest::checkFormat(const Shape& s, const cl_image_format& f, uint32_t seed) {
  const size_t element = elementSize(f);
  Pixels model{element, s.extent, pattern(element * s.extent[0] * s.extent[1] * s.extent[2], seed)};
  const size_t zero[3] = {0, 0, 0};
  cl_mem img = nullptr, backing = nullptr;
  HostLayout use;  // CL_MEM_USE_HOST_PTR's memory: outlives the image

  if (s.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    // The buffer holds exactly width elements, written before the image exists.
    backing = buffer(kW * element, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, model.bytes.data());
    ASSERT_NE(backing, nullptr);
    img = create(s, f, CL_MEM_READ_WRITE, descOf(s, 0, 0, backing), nullptr);
    ASSERT_NE(img, nullptr);
    EXPECT_EQ(readAll(img, s, element), model.bytes) << "an image over a buffer";
  } else {
    // Owned storage, written tightly (pitches 0, a host buffer of exactly the image's
    // elements) and read back; then written again from a padded layout.
    img = create(s, f, CL_MEM_READ_WRITE, descOf(s), nullptr);
    ASSERT_NE(img, nullptr);
    ASSERT_EQ(clEnqueueWriteImage(queue, img, CL_TRUE, zero, s.extent.data(), 0, 0,
                                  model.bytes.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(readAll(img, s, element), model.bytes) << "clEnqueueWriteImage, then read";
    model.bytes = pattern(model.bytes.size(), seed + 5);
    HostLayout in = paddedLayout(s, element, model.bytes);
    const size_t inSlice = s.hasSlices ? in.slice : 0;
    ASSERT_EQ(clEnqueueWriteImage(queue, img, CL_TRUE, zero, s.extent.data(), in.row, inSlice,
                                  in.bytes.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(readAll(img, s, element), model.bytes) << "clEnqueueWriteImage with pitches";

    // Created from the application's memory with padded pitches: copied...
    HostLayout copy = paddedLayout(s, element, model.bytes);
    cl_mem copied = create(s, f, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                           descOf(s, copy.row, copy.slice), copy.bytes.data());
    ASSERT_NE(copied, nullptr);
    EXPECT_EQ(readAll(copied, s, element), model.bytes) << "CL_MEM_COPY_HOST_PTR";
    EXPECT_EQ(clReleaseMemObject(copied), CL_SUCCESS);
    // ... or used in place: a write lands in the application's bytes.
    use = paddedLayout(s, element, model.bytes);
    cl_mem used = create(s, f, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                         descOf(s, use.row, use.slice), use.bytes.data());
    ASSERT_NE(used, nullptr);
    EXPECT_EQ(readAll(used, s, element), model.bytes) << "CL_MEM_USE_HOST_PTR";
    const std::vector<uint8_t> one = pattern(element, seed + 4);
    const size_t last[3] = {kW - 1, s.extent[1] - 1, s.extent[2] - 1}, pixel[3] = {1, 1, 1};
    ASSERT_EQ(clEnqueueWriteImage(queue, used, CL_TRUE, last, pixel, 0, 0, one.data(), 0, nullptr,
                                  nullptr),
              CL_SUCCESS);
    const size_t at = s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY
                          ? last[1] * use.slice + last[0] * element
                          : last[2] * use.slice + last[1] * use.row + last[0] * element;
    EXPECT_EQ(0, std::memcmp(use.bytes.data() + at, one.data(), element))
        << "a write to a CL_MEM_USE_HOST_PTR image";
    EXPECT_EQ(clReleaseMemObject(used), CL_SUCCESS);
  }

  size_t reportedElement = 0, rowPitch = 0;
  EXPECT_EQ(
      clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof reportedElement, &reportedElement, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(reportedElement, element) << "CL_IMAGE_ELEMENT_SIZE";
  EXPECT_EQ(clGetImageInfo(img, CL_IMAGE_ROW_PITCH, sizeof rowPitch, &rowPitch, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(rowPitch, kW * element) << "CL_IMAGE_ROW_PITCH";

  if (!::testing::Test::HasFatalFailure()) checkFill(s, f, img, model);
  if (!::testing::Test::HasFatalFailure()) checkCopies(s, f, img, model, seed);
  if (!::testing::Test::HasFatalFailure()) checkMaps(s, img, model, seed);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(img), CL_SUCCESS);
  if (backing) EXPECT_EQ(clReleaseMemObject(backing), CL_SUCCESS);
}

std::string formatName(const cl_image_format& f) {
  char s[32];
  std::snprintf(s, sizeof s, "0x%x,0x%x", f.image_channel_order, f.image_channel_data_type);
  return s;
}

TEST_F(ImageFormatsTest, EveryReportedFormatRoundTrips) {
  const cl_mem_flags accesses[] = {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
                                   CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE};
  uint32_t seed = 1;
  size_t checked = 0;
  for (const Shape& s : shapes()) {
    // The union over the accesses; each format created once with every access that
    // reported it.
    std::map<std::pair<cl_channel_order, cl_channel_type>, std::vector<cl_mem_flags>> formats;
    for (cl_mem_flags access : accesses)
      for (const cl_image_format& f : reported(access, s.type))
        formats[{f.image_channel_order, f.image_channel_data_type}].push_back(access);
    EXPECT_FALSE(formats.empty()) << s.name;
    for (const auto& [key, flags] : formats) {
      const cl_image_format f{key.first, key.second};
      SCOPED_TRACE(std::string(s.name) + " image, format " + formatName(f));
      ASSERT_GT(elementSize(f), 0u) << "a format the spec does not define";
      if (s.type != CL_MEM_OBJECT_IMAGE1D_BUFFER)
        for (cl_mem_flags access : flags) {
          cl_mem m = create(s, f, access, descOf(s), nullptr);
          if (m) EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);
        }
      checkFormat(s, f, seed++);
      ++checked;
    }
  }
  // Every format of the OpenCL 3.0 minimum lists, for six image types at least.
  EXPECT_GE(checked, 6u * 40);
}

// The x orders store what the spec's channel order table groups them with: CL_Rx like
// CL_R, CL_RGx like CL_RG (one and two channels: 1 and 2 bytes at 8 bits, 4 and 8 at 32).
TEST_F(ImageFormatsTest, PaddedOrdersElementSizes) {
  const std::pair<cl_image_format, size_t> cases[] = {
      {{CL_Rx, CL_UNORM_INT8}, 1},        {{CL_Rx, CL_FLOAT}, 4},
      {{CL_RGx, CL_UNORM_INT8}, 2},       {{CL_RGx, CL_SIGNED_INT32}, 8},
      {{CL_RGBx, CL_UNORM_SHORT_565}, 2}, {{CL_RGBx, CL_UNORM_INT_101010}, 4},
      {{CL_sRGBx, CL_UNORM_INT8}, 4},
  };
  const std::vector<cl_image_format> all = reported(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D);
  for (const auto& [f, bytes] : cases) {
    SCOPED_TRACE(formatName(f));
    const bool listed = std::any_of(all.begin(), all.end(), [&](const cl_image_format& g) {
      return g.image_channel_order == f.image_channel_order &&
             g.image_channel_data_type == f.image_channel_data_type;
    });
    ASSERT_TRUE(listed);
    cl_mem m = create(shapes()[3], f, CL_MEM_READ_WRITE, descOf(shapes()[3]), nullptr);
    ASSERT_NE(m, nullptr);
    size_t element = 0;
    EXPECT_EQ(clGetImageInfo(m, CL_IMAGE_ELEMENT_SIZE, sizeof element, &element, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(element, bytes);
    EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);
  }
}

}  // namespace
}  // namespace spvsim::rt::test
