// Images end to end: kernels compiled at test time (-O0 and -O2) read, write, sample and
// query images built by hand over host vectors. Expected values are worked by hand from
// the OpenCL spec's conversion rules and its addressing and filtering formulas
// (documented beside each table), or come from the host model of nearest and linear
// sampling below, written from the spec's text.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>

#include "spirv/loader.h"
#include "src/exec/image_format.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using namespace imagefmt;
using testing::bufferOf;
using testing::describe;

// An image over a host vector, tightly packed.
struct TestImage {
  ImageDesc desc;
  std::vector<uint8_t> data;

  TestImage(ImageType t, ImageFormat f, uint64_t w, uint64_t h = 1, uint64_t d = 1,
            uint64_t layers = 1) {
    desc.type = t;
    desc.format = f;
    desc.width = w;
    desc.height = h;
    desc.depth = d;
    desc.arraySize = layers;
    const uint32_t bpp = bytesPerPixel(f);
    desc.rowPitch = w * bpp;
    desc.slicePitch = t == ImageType::Image1DArray ? desc.rowPitch : desc.rowPitch * h;
    data.assign(w * h * d * layers * bpp, 0);
  }
  // Pixel (x, y, z) (z: depth or layer; 1-D arrays: z is the layer).
  uint8_t* at(uint64_t x, uint64_t y = 0, uint64_t z = 0) {
    return data.data() + z * desc.slicePitch + y * desc.rowPitch + x * bytesPerPixel(desc.format);
  }
  template <class T>
  T* as(uint64_t x, uint64_t y = 0, uint64_t z = 0) {
    return reinterpret_cast<T*>(at(x, y, z));
  }
  ArgBinding arg() {
    ImageDesc d = desc;
    d.data = data.data();
    d.bytes = data.size();
    return ArgBinding::ofImage(d);
  }
};

ArgBinding samplerArg(bool normalized, uint32_t addressing, uint32_t filter) {
  return ArgBinding::ofSampler(SamplerDesc{normalized, addressing, filter});
}

constexpr uint32_t kNone = 0x1130, kClampToEdge = 0x1131, kClamp = 0x1132, kRepeat = 0x1133,
                   kMirrored = 0x1134, kNearest = 0x1140, kLinear = 0x1141;

class ImageTest : public ::testing::TestWithParam<const char*> {
 protected:
  LaunchResult run(const std::string& source, const std::string& kernel,
                   std::array<uint64_t, 3> global, std::vector<ArgBinding> args) {
    return run(*load(source), kernel, global, std::move(args));
  }
  std::shared_ptr<Program> load(const std::string& source) {
    return Program::load(testing::compileOpenCL(source, GetParam()));
  }
  LaunchResult run(Program& program, const std::string& kernel, std::array<uint64_t, 3> global,
                   std::vector<ArgBinding> args) {
    NDRange range;
    range.dims = global[2] > 1 ? 3 : global[1] > 1 ? 2 : 1;
    range.global = global;
    LaunchOptions options;
    options.subGroupSize = 4;
    return program.launch(kernel, range, args, options);
  }
  static bool has(const LaunchResult& r, DiagnosticKind kind, const std::string& text) {
    for (const auto& d : r.diagnostics)
      if (d.kind == kind && d.message.find(text) != std::string::npos) return true;
    return false;
  }
};

TEST_P(ImageTest, SamplerlessReadAndWriteConvert) {
  const char* src = R"(
    kernel void k(read_only image2d_t src, write_only image2d_t dst, write_only image2d_t bytes) {
      int x = get_global_id(0), y = get_global_id(1);
      float4 v = read_imagef(src, (int2)(x, y));
      write_imagef(dst, (int2)(x, y), v * 0.5f);
      write_imagef(bytes, (int2)(x, y), v * 2.0f - 0.5f);
    })";
  TestImage in(ImageType::Image2D, {kBGRA, kUnormInt8}, 4, 3);
  for (size_t i = 0; i < in.data.size(); ++i) in.data[i] = uint8_t(i * 37 + 3);
  TestImage out(ImageType::Image2D, {kRGBA, kFloat}, 4, 3);
  TestImage back(ImageType::Image2D, {kRGBA, kUnormInt8}, 4, 3);
  auto r = run(src, "k", {4, 3, 1}, {in.arg(), out.arg(), back.arg()});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  for (uint64_t y = 0; y < 3; ++y)
    for (uint64_t x = 0; x < 4; ++x) {
      const uint8_t* p = in.at(x, y);
      // BGRA memory order: (r, g, b, a) = (p[2], p[1], p[0], p[3]) / 255.
      const float rgba[4] = {p[2] / 255.0f, p[1] / 255.0f, p[0] / 255.0f, p[3] / 255.0f};
      for (int c = 0; c < 4; ++c) {
        EXPECT_EQ(out.as<float>(x, y)[c], rgba[c] * 0.5f) << x << "," << y << " c" << c;
        // convert_uchar_sat_rte((v * 2 - 0.5) * 255)
        const float f = (rgba[c] * 2.0f - 0.5f) * 255.0f;
        EXPECT_EQ(back.at(x, y)[c], uint8_t(std::clamp(std::nearbyint(f), 0.0f, 255.0f)));
      }
    }
}

TEST_P(ImageTest, IntegerReadsAndSaturatingWrites) {
  const char* src = R"(
    kernel void k(read_only image2d_t si, read_only image2d_t ui, write_only image2d_t so,
                  write_only image2d_t uo, global int4* iv, global uint4* uv) {
      int x = get_global_id(0);
      int4 a = read_imagei(si, (int2)(x, 0));
      uint4 b = read_imageui(ui, (int2)(x, 0));
      iv[x] = a;
      uv[x] = b;
      write_imagei(so, (int2)(x, 0), a * 300);
      write_imageui(uo, (int2)(x, 0), b * 300u);
    })";
  TestImage si(ImageType::Image2D, {kRG, kSignedInt16}, 4, 1);
  TestImage ui(ImageType::Image2D, {kR, kUnsignedInt8}, 4, 1);
  TestImage so(ImageType::Image2D, {kRGBA, kSignedInt8}, 4, 1);
  TestImage uo(ImageType::Image2D, {kA, kUnsignedInt16}, 4, 1);
  const int16_t sv[8] = {-1, 2, 300, -300, 32767, -32768, 0, 5};
  std::memcpy(si.data.data(), sv, sizeof sv);
  for (int i = 0; i < 4; ++i) ui.data[i] = uint8_t(i * 80 + 1);
  std::vector<int32_t> iv(16);
  std::vector<uint32_t> uv(16);
  auto r = run(src, "k", {4, 1, 1},
               {si.arg(), ui.arg(), so.arg(), uo.arg(), bufferOf(iv), bufferOf(uv)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int x = 0; x < 4; ++x) {
    // RG -> (r, g, 0, 1); R -> (r, 0, 0, 1).
    EXPECT_EQ(iv[4 * x + 0], sv[2 * x]);
    EXPECT_EQ(iv[4 * x + 1], sv[2 * x + 1]);
    EXPECT_EQ(iv[4 * x + 2], 0);
    EXPECT_EQ(iv[4 * x + 3], 1);
    EXPECT_EQ(uv[4 * x + 0], uint32_t(x * 80 + 1));
    EXPECT_EQ(uv[4 * x + 3], 1u);
    // write_imagei to SIGNED_INT8: convert_char_sat.
    for (int c = 0; c < 4; ++c)
      EXPECT_EQ(int8_t(so.at(x)[c]), std::clamp(iv[4 * x + c] * 300, -128, 127));
    // CL_A stores w only: 1 * 300.
    EXPECT_EQ(*uo.as<uint16_t>(x), 300);
  }
}

TEST_P(ImageTest, QueriesOfEveryImageType) {
  const char* src = R"(
    kernel void k(read_only image1d_t a, read_only image1d_buffer_t b, read_only image1d_array_t c,
                  read_only image2d_t d, read_only image2d_array_t e, read_only image3d_t f,
                  global int* out) {
      out[0] = get_image_width(a);
      out[1] = get_image_width(b);
      out[2] = get_image_width(c);
      out[3] = get_image_array_size(c);
      int2 dd = get_image_dim(d);
      out[4] = dd.x; out[5] = dd.y;
      int2 ed = get_image_dim(e);
      out[6] = ed.x; out[7] = ed.y; out[8] = get_image_array_size(e);
      int4 fd = get_image_dim(f);
      out[9] = fd.x; out[10] = fd.y; out[11] = fd.z; out[12] = fd.w;
      out[13] = get_image_depth(f);
      out[14] = get_image_channel_order(d);
      out[15] = get_image_channel_data_type(d);
      out[16] = get_image_channel_order(f);
      out[17] = get_image_channel_data_type(f);
      out[18] = get_image_height(e);
    })";
  TestImage a(ImageType::Image1D, {kR, kFloat}, 7);
  TestImage b(ImageType::Image1DBuffer, {kRGBA, kUnormInt8}, 9);
  TestImage c(ImageType::Image1DArray, {kRG, kHalfFloat}, 5, 1, 1, 3);
  TestImage d(ImageType::Image2D, {kBGRA, kUnormInt8}, 6, 4);
  TestImage e(ImageType::Image2DArray, {kRGBA, kSignedInt32}, 3, 2, 1, 5);
  TestImage f(ImageType::Image3D, {kLuminance, kSnormInt16}, 2, 3, 4);
  std::vector<int32_t> out(19, -1);
  auto r = run(src, "k", {1, 1, 1},
               {a.arg(), b.arg(), c.arg(), d.arg(), e.arg(), f.arg(), bufferOf(out)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  // CLK_BGRA = 0x10B6, CLK_UNORM_INT8 = 0x10D2, CLK_LUMINANCE = 0x10B9, CLK_SNORM_INT16 = 0x10D1.
  const std::vector<int32_t> want = {7, 9, 5, 3, 6,      4,      3,      2,      5, 2,
                                     3, 4, 0, 4, 0x10B6, 0x10D2, 0x10B9, 0x10D1, 2};
  EXPECT_EQ(out, want);
}

TEST_P(ImageTest, ArraysAnd3DReadWrite) {
  const char* src = R"(
    kernel void k(read_only image1d_array_t a, read_only image2d_array_t b, read_only image3d_t c,
                  write_only image1d_array_t wa, write_only image2d_array_t wb,
                  read_only image1d_t d, write_only image1d_t wd, write_only image1d_buffer_t we,
                  read_only image1d_buffer_t e, global float* out) {
      int x = get_global_id(0);
      float4 v = read_imagef(a, (int2)(x, 1));
      float4 u = read_imagef(b, (int4)(x, 1, 2, 0));
      float4 t = read_imagef(c, (int4)(x, 2, 1, 0));
      write_imagef(wa, (int2)(x, 2), v + u);
      write_imagef(wb, (int4)(x, 0, 1, 0), t);
      write_imagef(wd, x, read_imagef(d, x) + read_imagef(e, x));
      write_imagef(we, x, t);
      out[x] = v.x + u.x + t.x;
    })";
  const ImageFormat rf{kR, kFloat};
  TestImage a(ImageType::Image1DArray, rf, 4, 1, 1, 3), b(ImageType::Image2DArray, rf, 4, 2, 1, 3),
      c(ImageType::Image3D, rf, 4, 3, 2), wa(ImageType::Image1DArray, rf, 4, 1, 1, 3),
      wb(ImageType::Image2DArray, rf, 4, 2, 1, 2), d(ImageType::Image1D, rf, 4),
      wd(ImageType::Image1D, rf, 4), we(ImageType::Image1DBuffer, rf, 4),
      e(ImageType::Image1DBuffer, rf, 4);
  // Each pixel holds x + 10 y + 100 z (z: layer or depth).
  for (TestImage* im : {&a, &b, &c, &d, &e}) {
    const auto& s = im->desc;
    const uint64_t zs = s.type == ImageType::Image3D ? s.depth : s.arraySize;
    for (uint64_t z = 0; z < zs; ++z)
      for (uint64_t y = 0; y < s.height; ++y)
        for (uint64_t x = 0; x < s.width; ++x)
          *im->as<float>(x, y, z) = float(x + 10 * y + 100 * z);
  }
  std::vector<float> out(4);
  auto r = run(src, "k", {4, 1, 1},
               {a.arg(), b.arg(), c.arg(), wa.arg(), wb.arg(), d.arg(), wd.arg(), we.arg(), e.arg(),
                bufferOf(out)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int x = 0; x < 4; ++x) {
    const float v = x + 100.0f, u = x + 10.0f + 200.0f, t = x + 20.0f + 100.0f;
    EXPECT_EQ(out[x], v + u + t);
    EXPECT_EQ(*wa.as<float>(x, 0, 2), v + u);
    EXPECT_EQ(*wa.as<float>(x, 0, 1), 0.0f);
    EXPECT_EQ(*wb.as<float>(x, 0, 1), t);
    EXPECT_EQ(*wd.as<float>(x), 2.0f * x);
    EXPECT_EQ(*we.as<float>(x), t);
  }
}

// read_imagef(image1d_t, sampler, float) over R,FLOAT pixels 10..14 (width 5), worked by
// hand from the spec's formulas (border colour of CL_R: (0, 0, 0, 1), so x = 0).
struct SampleCase {
  bool normalized;
  uint32_t addressing, filter;
  float s, want;
};

const SampleCase kCases1D[] = {
    // nearest, CLAMP_TO_EDGE: i = clamp(floor(s * 5), 0, 4)
    {true, kClampToEdge, kNearest, -0.1f, 10},
    {true, kClampToEdge, kNearest, 0.5f, 12},
    {true, kClampToEdge, kNearest, 1.3f, 14},
    // nearest, CLAMP: i = clamp(floor(u), -1, 5); -1 and 5 are the border
    {true, kClamp, kNearest, -0.1f, 0},
    {true, kClamp, kNearest, 1.3f, 0},
    {false, kClamp, kNearest, 3.99f, 13},
    // nearest, REPEAT: u = (s - floor(s)) * 5: 1.3 -> 1.4999998 -> 11; -0.1 -> 4.5 -> 14
    {true, kRepeat, kNearest, 1.3f, 11},
    {true, kRepeat, kNearest, -0.1f, 14},
    // nearest, MIRRORED_REPEAT: s' = |s - 2 rint(s / 2)|: 1.3 -> 0.7 -> 3.5 -> 13;
    // -0.1 -> 0.1 -> 0.5 -> 10; 2.5 -> 0.5 -> 2.5 -> 12
    {true, kMirrored, kNearest, 1.3f, 13},
    {true, kMirrored, kNearest, -0.1f, 10},
    {true, kMirrored, kNearest, 2.5f, 12},
    // nearest, NONE, unnormalized: i = floor(u)
    {false, kNone, kNearest, 2.7f, 12},
    // linear, CLAMP_TO_EDGE, unnormalized: u = 2: i0 = 1, i1 = 2, a = 0.5 -> 11.5;
    // u = 0.25: i0 = i1 = 0 -> 10; u = 4.75: i0 = 4, i1 = 5 -> 4 -> 14
    {false, kClampToEdge, kLinear, 2.0f, 11.5f},
    {false, kClampToEdge, kLinear, 0.25f, 10},
    {false, kClampToEdge, kLinear, 4.75f, 14},
    // linear, CLAMP: u = 0.25: i0 = -1 (border 0), i1 = 0, a = 0.75 -> 7.5;
    // u = 5: i0 = 4, i1 = 5 (border), a = 0.5 -> 7
    {false, kClamp, kLinear, 0.25f, 7.5f},
    {false, kClamp, kLinear, 5.0f, 7.0f},
    // linear, REPEAT, s = 0: u = 0, i0 = -1 + 5 = 4, i1 = 0, a = 0.5 -> 12
    {true, kRepeat, kLinear, 0.0f, 12},
    // linear, MIRRORED_REPEAT: s = 0 -> i0 = max(-1, 0) = 0, i1 = 0 -> 10;
    // s = 1.125 -> s' = 0.875, u = 4.375, i0 = 3, i1 = 4, a = 0.875 -> 13.875
    {true, kMirrored, kLinear, 0.0f, 10},
    {true, kMirrored, kLinear, 1.125f, 13.875f},
    // linear, normalized CLAMP_TO_EDGE: s = 0.5 -> u = 2.5, i0 = 2, a = 0 -> 12
    {true, kClampToEdge, kLinear, 0.5f, 12},
};

TEST_P(ImageTest, Sampling1DByTheSpecFormulas) {
  const char* src = R"(
    kernel void k(read_only image1d_t img, sampler_t s, global const float* coord,
                  global float4* out) {
      int i = get_global_id(0);
      out[i] = read_imagef(img, s, coord[i]);
    })";
  TestImage img(ImageType::Image1D, {kR, kFloat}, 5);
  for (int x = 0; x < 5; ++x) *img.as<float>(x) = 10.0f + x;
  auto program = load(src);
  for (const SampleCase& c : kCases1D) {
    std::vector<float> coord(4, c.s);
    std::vector<float> out(16, -1.0f);
    auto r = run(*program, "k", {4, 1, 1},
                 {img.arg(), samplerArg(c.normalized, c.addressing, c.filter), bufferOf(coord),
                  bufferOf(out)});
    const std::string what = "s=" + std::to_string(c.s) + " mode " + std::to_string(c.addressing) +
                             " filter " + std::to_string(c.filter);
    EXPECT_TRUE(r.diagnostics.empty()) << what << ": " << describe(r);
    EXPECT_EQ(out[0], c.want) << what;
    EXPECT_EQ(out[1], 0.0f) << what;
    EXPECT_EQ(out[3], 1.0f) << what;  // CL_R: alpha 1 (also the border's)
  }
}

// Bilinear and trilinear filtering, worked by hand: T = (1-a)(1-b) T00 + a(1-b) T10 +
// (1-a) b T01 + a b T11 (and the 8-tap form in 3-D).
TEST_P(ImageTest, LinearFiltering2DAnd3D) {
  const char* src = R"(
    constant sampler_t lin = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                             CLK_FILTER_LINEAR;
    kernel void k(read_only image2d_t a, read_only image3d_t b, read_only image2d_array_t c,
                  global float* out) {
      out[0] = read_imagef(a, lin, (float2)(1.0f, 1.0f)).x;
      out[1] = read_imagef(a, lin, (float2)(0.75f, 1.25f)).x;
      out[2] = read_imagef(b, lin, (float4)(1.0f, 1.0f, 1.0f, 0.0f)).x;
      out[3] = read_imagef(b, lin, (float4)(0.75f, 1.25f, 1.0f, 0.0f)).x;
      // Layer 1.6 rounds to 2, clamped to the last layer (1).
      out[4] = read_imagef(c, lin, (float4)(0.75f, 1.25f, 1.6f, 0.0f)).x;
      out[5] = read_imagef(c, lin, (float4)(0.75f, 1.25f, -3.0f, 0.0f)).x;
    })";
  TestImage a(ImageType::Image2D, {kR, kFloat}, 2, 2);
  TestImage b(ImageType::Image3D, {kR, kFloat}, 2, 2, 2);
  TestImage c(ImageType::Image2DArray, {kR, kFloat}, 2, 2, 1, 2);
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) {
        if (z == 0) *a.as<float>(x, y) = float(x + 2 * y);
        *b.as<float>(x, y, z) = float(x + 2 * y + 4 * z);
        *c.as<float>(x, y, z) = float(x + 2 * y) + 10.0f * z;
      }
  std::vector<float> out(6, -1.0f);
  auto r = run(src, "k", {1, 1, 1}, {a.arg(), b.arg(), c.arg(), bufferOf(out)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out[0], 1.5f);   // a = b = 0.5: the mean of 0, 1, 2, 3
  EXPECT_EQ(out[1], 1.75f);  // a = 0.25, b = 0.75: 0.0625 * 1 + 0.5625 * 2 + 0.1875 * 3
  EXPECT_EQ(out[2], 3.5f);   // the mean of 0..7
  EXPECT_EQ(out[3], 3.75f);  // linear in each axis: 0.25 + 2 * 0.75 + 4 * 0.5
  EXPECT_EQ(out[4], 11.75f);
  EXPECT_EQ(out[5], 1.75f);
}

// Integer coordinates with a sampler, normalized coordinates in 2-D, and the constant
// samplers of OpConstantSampler.
TEST_P(ImageTest, IntegerCoordinatesAndConstantSamplers) {
  const char* src = R"(
    constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                              CLK_FILTER_NEAREST;
    constant sampler_t border = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP |
                                CLK_FILTER_NEAREST;
    constant sampler_t wrap = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
    kernel void k(read_only image2d_t img, global uint4* out) {
      int i = get_global_id(0);
      out[i] = read_imageui(img, edge, (int2)(i - 2, 1));
      out[8 + i] = read_imageui(img, border, (int2)(i - 2, 1));
      out[16 + i] = read_imageui(img, wrap, (float2)(i * 0.25f + 0.1f, 1.6f));
    })";
  TestImage img(ImageType::Image2D, {kRA, kUnsignedInt32}, 3, 2);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) {
      img.as<uint32_t>(x, y)[0] = 1 + x + 10 * y;
      img.as<uint32_t>(x, y)[1] = 100 + x;
    }
  std::vector<uint32_t> out(24 * 4);
  auto r = run(src, "k", {8, 1, 1}, {img.arg(), bufferOf(out)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int i = 0; i < 8; ++i) {
    const int e = std::clamp(i - 2, 0, 2);  // CLAMP_TO_EDGE
    EXPECT_EQ(out[4 * i], uint32_t(11 + e)) << i;
    EXPECT_EQ(out[4 * i + 3], uint32_t(100 + e)) << i;  // RA: (r, 0, 0, a)
    const bool inside = i - 2 >= 0 && i - 2 <= 2;       // CLAMP: border (0, 0, 0, 0) for RA
    EXPECT_EQ(out[4 * (8 + i)], inside ? uint32_t(11 + i - 2) : 0u) << i;
    EXPECT_EQ(out[4 * (8 + i) + 3], inside ? uint32_t(100 + i - 2) : 0u) << i;
    // REPEAT: u = frac(s) * 3, v = frac(1.6) * 2 = 1.2 -> row 1.
    const float s = i * 0.25f + 0.1f;
    int x = int(std::floor((s - std::floor(s)) * 3.0f));
    if (x > 2) x -= 3;
    EXPECT_EQ(out[4 * (16 + i)], uint32_t(11 + x)) << i;
  }
}

TEST_P(ImageTest, ReadWriteImageAndHalfBuiltins) {
  const char* src = R"(
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    kernel void k(read_write image2d_t img, read_only image2d_t h, write_only image2d_t ho) {
      int x = get_global_id(0);
      float4 v = read_imagef(img, (int2)(x, 0));
      write_imagef(img, (int2)(x, 0), v + 1.0f);
      half4 hv = read_imageh(h, (int2)(x, 0));
      write_imageh(ho, (int2)(x, 0), hv * (half)2);
    })";
  TestImage img(ImageType::Image2D, {kRGBA, kFloat}, 4, 1);
  TestImage h(ImageType::Image2D, {kRGBA, kUnormInt16}, 4, 1);
  TestImage ho(ImageType::Image2D, {kRGBA, kHalfFloat}, 4, 1);
  for (int x = 0; x < 4; ++x)
    for (int c = 0; c < 4; ++c) {
      img.as<float>(x)[c] = float(x * 4 + c);
      h.as<uint16_t>(x)[c] = uint16_t(x * 4096 + c);
    }
  auto r = run(src, "k", {4, 1, 1}, {img.arg(), h.arg(), ho.arg()});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int x = 0; x < 4; ++x)
    for (int c = 0; c < 4; ++c) {
      EXPECT_EQ(img.as<float>(x)[c], float(x * 4 + c) + 1.0f);
      // read_imageh: v / 65535 rounded to half; times 2 is exact in half.
      const uint16_t half = floatToHalf(float(x * 4096 + c) / 65535.0f);
      EXPECT_EQ(ho.as<uint16_t>(x)[c], floatToHalf(2.0f * halfToFloat(half))) << x << " " << c;
    }
}

TEST_P(ImageTest, UndefinedBehaviourIsReported) {
  const char* src = R"(
    constant sampler_t repeatUnnorm = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_REPEAT |
                                      CLK_FILTER_NEAREST;
    constant sampler_t linear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
    constant sampler_t none = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
    kernel void k(read_only image2d_t f, read_only image2d_t u, write_only image2d_t w,
                  global float4* out, global uint4* uout) {
      int x = get_global_id(0);
      write_imagef(w, (int2)(x + 2, 0), (float4)(1.0f));   // x = 2, 3: outside
      out[x] = read_imagef(f, (int2)(x, 5));                 // outside (height 2)
      out[4 + x] = read_imagef(f, repeatUnnorm, (float2)(x, 0.5f));
      uout[x] = read_imageui(u, linear, (float2)(x, 0.5f));
      out[8 + x] = read_imagef(u, (int2)(0, 0));            // integer format
      out[12 + x] = read_imagef(f, none, (float2)(x + 2.5f, 0.5f));
    })";
  TestImage f(ImageType::Image2D, {kR, kFloat}, 4, 2);
  TestImage u(ImageType::Image2D, {kR, kUnsignedInt8}, 4, 2);
  TestImage w(ImageType::Image2D, {kRGBA, kUnormInt8}, 4, 1);
  for (int x = 0; x < 4; ++x) *f.as<float>(x, 0) = float(x + 1);
  std::vector<float> out(64, -1.0f);
  std::vector<uint32_t> uout(16);
  auto r = run(src, "k", {4, 1, 1}, {f.arg(), u.arg(), w.arg(), bufferOf(out), bufferOf(uout)});
  EXPECT_TRUE(has(r, DiagnosticKind::OutOfBounds, "write_imagef at (4, 0) outside argument 2"))
      << describe(r);
  EXPECT_TRUE(has(r, DiagnosticKind::OutOfBounds, "read_imagef at (0, 5) outside argument 0"))
      << describe(r);
  EXPECT_TRUE(has(r, DiagnosticKind::ImageMisuse,
                  "CLK_ADDRESS_REPEAT and "
                  "CLK_ADDRESS_MIRRORED_REPEAT need normalized"))
      << describe(r);
  EXPECT_TRUE(has(r, DiagnosticKind::ImageMisuse,
                  "read_imageui with sampler "
                  "CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP "
                  "| CLK_FILTER_LINEAR: read_imagei and "
                  "read_imageui need CLK_FILTER_NEAREST"))
      << describe(r);
  EXPECT_TRUE(has(r, DiagnosticKind::ImageMisuse, "read_imagef on argument 1 (")) << describe(r);
  EXPECT_TRUE(has(r, DiagnosticKind::ImageMisuse, "an image of R,UNSIGNED_INT8")) << describe(r);
  EXPECT_TRUE(has(r, DiagnosticKind::OutOfBounds, "CLK_ADDRESS_NONE at coordinate x = 4.5"))
      << describe(r);
  // The in-range writes happened; the others were dropped (4x1 image).
  EXPECT_EQ(w.at(2)[0], 255);
  EXPECT_EQ(w.at(3)[0], 255);
  EXPECT_EQ(w.at(1)[0], 0);
  EXPECT_EQ(out[0], 0.0f);  // sampler-less read outside: 0
  // REPEAT with unnormalized coordinates falls back to CLAMP_TO_EDGE: pixel x.
  for (int x = 0; x < 4; ++x) EXPECT_EQ(out[4 * (4 + x)], float(x + 1));
}

// A host model of the spec's 2-D sampling ("Image Addressing and Filtering"), written
// from its text: the taps and weights of one axis for a normalized coordinate.
struct ModelAxis {
  int i0, i1;
  float a;
};

ModelAxis modelAxis(float s, int w, uint32_t mode, bool linear) {
  const float wf = float(w);
  float u;
  if (mode == kRepeat) {
    u = (s - std::floor(s)) * wf;
  } else if (mode == kMirrored) {
    u = std::fabs(s - 2.0f * std::rint(0.5f * s)) * wf;
  } else {
    u = s * wf;
  }
  if (!linear) {
    int i = int(std::floor(u));
    if (mode == kRepeat && i > w - 1) i -= w;
    if (mode == kMirrored) i = std::min(i, w - 1);
    if (mode == kClampToEdge) i = std::clamp(i, 0, w - 1);
    if (mode == kClamp) i = std::clamp(i, -1, w);
    return {i, i, 0.0f};
  }
  int i0 = int(std::floor(u - 0.5f)), i1 = i0 + 1;
  const float a = (u - 0.5f) - std::floor(u - 0.5f);
  if (mode == kRepeat) {
    if (i0 < 0) i0 += w;
    if (i1 > w - 1) i1 -= w;
  } else if (mode == kMirrored) {
    i0 = std::max(i0, 0);
    i1 = std::min(i1, w - 1);
  } else if (mode == kClampToEdge) {
    i0 = std::clamp(i0, 0, w - 1);
    i1 = std::clamp(i1, 0, w - 1);
  } else if (mode == kClamp) {
    i0 = std::clamp(i0, -1, w);
    i1 = std::clamp(i1, -1, w);
  }
  return {i0, i1, a};
}

TEST_P(ImageTest, Sampling2DMatchesTheHostModel) {
  const char* src = R"(
    kernel void k(read_only image2d_t img, sampler_t s, global const float2* coord,
                  global float* out) {
      int i = get_global_id(0);
      out[i] = read_imagef(img, s, coord[i]).x;
    })";
  const int w = 5, h = 3;
  TestImage img(ImageType::Image2D, {kR, kFloat}, w, h);
  auto texel = [&](int x, int y) {
    return x < 0 || y < 0 || x >= w || y >= h ? 0.0f : float(x + 10 * y);  // border: 0
  };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) *img.as<float>(x, y) = texel(x, y);
  std::vector<float> coord;
  for (int j = -7; j <= 17; ++j)
    for (int i = -7; i <= 17; ++i) {
      coord.push_back(i * 0.1f + 0.013f);
      coord.push_back(j * 0.1f + 0.021f);
    }
  const size_t n = coord.size() / 2;
  auto program = load(src);
  for (uint32_t mode : {kClampToEdge, kClamp, kRepeat, kMirrored})
    for (uint32_t filter : {kNearest, kLinear}) {
      std::vector<float> out(n, -1.0f);
      auto r = run(*program, "k", {n, 1, 1},
                   {img.arg(), samplerArg(true, mode, filter), bufferOf(coord), bufferOf(out)});
      ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
      for (size_t q = 0; q < n; ++q) {
        const ModelAxis ax = modelAxis(coord[2 * q], w, mode, filter == kLinear);
        const ModelAxis ay = modelAxis(coord[2 * q + 1], h, mode, filter == kLinear);
        const float want = filter == kNearest ? texel(ax.i0, ay.i0)
                                              : (1 - ax.a) * (1 - ay.a) * texel(ax.i0, ay.i0) +
                                                    ax.a * (1 - ay.a) * texel(ax.i1, ay.i0) +
                                                    (1 - ax.a) * ay.a * texel(ax.i0, ay.i1) +
                                                    ax.a * ay.a * texel(ax.i1, ay.i1);
        EXPECT_EQ(out[q], want) << "mode " << mode << " filter " << filter << " at ("
                                << coord[2 * q] << ", " << coord[2 * q + 1] << ")";
      }
    }
}

// SPIR-V 1.6's Nontemporal image operand is a hint (SPIR-V spec, "Image Operands"): a
// sample with Lod|Nontemporal, a sampler-less read and two writes with Nontemporal copy
// a 2x1 CL_RGBA/CL_FLOAT image unchanged (exact floats, nearest at texel centres).
TEST(ImageOperands, NontemporalIsAHint) {
  auto program = Program::load(spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability ImageBasic
               OpCapability LiteralSampler
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "copy"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %v2uint = OpTypeVector %uint 2
    %v4float = OpTypeVector %float 4
         %ro = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
         %wo = OpTypeImage %void 2D 0 0 0 0 Unknown WriteOnly
  %sampler_t = OpTypeSampler
    %sampled = OpTypeSampledImage %ro
         %fn = OpTypeFunction %void %ro %wo
    %sampler = OpConstantSampler %sampler_t None 0 Nearest
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
    %float_0 = OpConstant %float 0
      %first = OpConstantComposite %v2uint %uint_0 %uint_0
     %second = OpConstantComposite %v2uint %uint_1 %uint_0
          %k = OpFunction %void None %fn
        %src = OpFunctionParameter %ro
        %dst = OpFunctionParameter %wo
      %entry = OpLabel
         %si = OpSampledImage %sampled %src %sampler
          %a = OpImageSampleExplicitLod %v4float %si %first Lod|Nontemporal %float_0
               OpImageWrite %dst %first %a Nontemporal
          %b = OpImageRead %v4float %src %second Nontemporal
               OpImageWrite %dst %second %b Nontemporal
               OpReturn
               OpFunctionEnd
)"));
  TestImage src(ImageType::Image2D, {kRGBA, kFloat}, 2),
      dst(ImageType::Image2D, {kRGBA, kFloat}, 2);
  const float texels[8] = {1.0f, 2.0f, -1.0f, 128.0f, 0.5f, -3.0f, 7.0f, 1e20f};
  std::memcpy(src.data.data(), texels, sizeof texels);
  NDRange range;
  range.global = {1, 1, 1};
  LaunchResult r = program->launch("copy", range, {src.arg(), dst.arg()}, LaunchOptions{});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(0, std::memcmp(dst.data.data(), texels, sizeof texels));
}

INSTANTIATE_TEST_SUITE_P(OptLevels, ImageTest, ::testing::Values("-O0", "-O2"),
                         [](const auto& info) { return std::string(info.param + 1); });

}  // namespace
}  // namespace spvsim
