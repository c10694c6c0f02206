// cl_intel_subgroups image block reads and writes end to end (-O0 and -O2, sub-group
// sizes 8 and 16), against a host model of the spec's layout: element k of lane l is the
// E-byte value at byte x + l * E of row y + k, raw bytes; with 4-byte pixels and uint
// elements, out-of-bounds reads return the edge element and out-of-bounds writes are
// ignored. Then the diagnostics: out-of-bounds with smaller pixels, misaligned writes,
// non-uniform coordinates.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "src/exec/image_format.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using namespace imagefmt;
using testing::bufferOf;
using testing::describe;
using testing::valueOf;

struct Int2 {
  int32_t x, y;
};

struct RawImage {
  ImageDesc desc;
  std::vector<uint8_t> data;
  RawImage(ImageFormat f, uint64_t w, uint64_t h) {
    desc.type = ImageType::Image2D;
    desc.format = f;
    desc.width = w;
    desc.height = h;
    desc.rowPitch = w * bytesPerPixel(f);
    desc.slicePitch = desc.rowPitch * h;
    data.resize(desc.slicePitch);
    for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 13 + 7);
  }
  ArgBinding arg() {
    ImageDesc d = desc;
    d.data = data.data();
    d.bytes = data.size();
    return ArgBinding::ofImage(d);
  }
  // The E-byte value at (byte x, row y), clamped to the edge when asked.
  template <class T>
  T at(int64_t x, int64_t y, bool clamp = false) const {
    const int64_t rowBytes = int64_t(desc.rowPitch);
    if (clamp) {
      x = std::clamp<int64_t>(x, 0, rowBytes - int64_t(sizeof(T)));
      y = std::clamp<int64_t>(y, 0, int64_t(desc.height) - 1);
    }
    T v;
    std::memcpy(&v, data.data() + y * rowBytes + x, sizeof(T));
    return v;
  }
};

const char* kSource = R"(
  // cl_intel_subgroups_char/long on images: clang-15's header lacks them; llvm-spirv-15
  // maps the names to the INTEL opcodes.
  uchar2 __attribute__((overloadable)) intel_sub_group_block_read_uc2(read_only image2d_t, int2);
  ulong __attribute__((overloadable)) intel_sub_group_block_read_ul(read_only image2d_t, int2);
  kernel void rducul(read_only image2d_t img, int2 coord, global uchar* o1, global ulong* o2) {
    uchar2 a = intel_sub_group_block_read_uc2(img, coord);
    size_t i = get_global_id(0);
    o1[2 * i] = a.s0; o1[2 * i + 1] = a.s1;
    o2[i] = intel_sub_group_block_read_ul(img, coord);
  }
  kernel void rd(read_only image2d_t img, int2 coord, global uint* out) {
    uint4 v = intel_sub_group_block_read4(img, coord);
    size_t i = get_global_id(0);
    out[4 * i] = v.s0; out[4 * i + 1] = v.s1; out[4 * i + 2] = v.s2; out[4 * i + 3] = v.s3;
  }
  kernel void rdus(read_only image2d_t img, int2 coord, global ushort* out) {
    ushort2 v = intel_sub_group_block_read_us2(img, coord);
    size_t i = get_global_id(0);
    out[2 * i] = v.s0; out[2 * i + 1] = v.s1;
  }
  kernel void wr(write_only image2d_t img, int2 coord) {
    uint l = get_sub_group_local_id();
    intel_sub_group_block_write2(img, coord, (uint2)(1000 + l, 2000 + l));
  }
  kernel void wrskew(write_only image2d_t img, int2 coord) {
    int l = get_sub_group_local_id();
    intel_sub_group_block_write(img, coord + (int2)(0, l == 3), 5u);
  }
)";

class ImageBlockIo : public ::testing::TestWithParam<std::tuple<const char*, uint32_t>> {
 protected:
  void SetUp() override {
    program_ = Program::load(testing::compileOpenCL(kSource, std::get<0>(GetParam())));
  }
  uint32_t width() const { return std::get<1>(GetParam()); }
  LaunchResult run(const std::string& kernel, std::vector<ArgBinding> args) {
    NDRange range;
    range.global = {width(), 1, 1};
    range.local = {width(), 1, 1};
    range.localGiven = true;
    LaunchOptions options;
    options.subGroupSize = width();
    return program_->launch(kernel, range, args, options);
  }
  static bool has(const LaunchResult& r, DiagnosticKind kind, const std::string& text) {
    for (const auto& d : r.diagnostics)
      if (d.kind == kind && d.message.find(text) != std::string::npos) return true;
    return false;
  }
  std::shared_ptr<Program> program_;
};

TEST_P(ImageBlockIo, ReadsRowsOfUintsClampedToTheEdge) {
  RawImage img({kRGBA, kUnormInt8}, 20, 4);  // 4-byte pixels: 80-byte rows
  for (Int2 c : {Int2{8, 1}, Int2{48, -1}, Int2{0, 0}}) {
    std::vector<uint32_t> out(4 * width());
    auto r = run("rd", {img.arg(), valueOf(c), bufferOf(out)});
    ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
    for (uint32_t l = 0; l < width(); ++l)
      for (uint32_t k = 0; k < 4; ++k)
        EXPECT_EQ(out[4 * l + k], img.at<uint32_t>(c.x + 4 * int64_t(l), c.y + int64_t(k), true))
            << "coord " << c.x << "," << c.y << " lane " << l << " element " << k;
  }
}

TEST_P(ImageBlockIo, ReadsUshortsOfSmallerPixels) {
  RawImage img({kR, kUnsignedInt8}, 40, 3);
  const Int2 c{4, 1};
  std::vector<uint16_t> out(2 * width());
  auto r = run("rdus", {img.arg(), valueOf(c), bufferOf(out)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  for (uint32_t l = 0; l < width(); ++l)
    for (uint32_t k = 0; k < 2; ++k)
      EXPECT_EQ(out[2 * l + k], img.at<uint16_t>(c.x + 2 * l, c.y + k)) << l << " " << k;
  // Beyond the row (40 bytes) with 1-byte pixels: undefined, reported.
  auto bad = run("rdus", {img.arg(), valueOf(Int2{36, 0}), bufferOf(out)});
  EXPECT_TRUE(has(bad, DiagnosticKind::OutOfBounds,
                  "intel_sub_group_block_read element 0 of "
                  "lane 2 at byte (40, 0) outside"))
      << describe(bad);
}

TEST_P(ImageBlockIo, ReadsUcharsAndUlongs) {
  RawImage img({kR, kUnsignedInt8}, 160, 3);
  const Int2 c{8, 1};
  std::vector<uint8_t> o1(2 * width());
  std::vector<uint64_t> o2(width());
  auto r = run("rducul", {img.arg(), valueOf(c), bufferOf(o1), bufferOf(o2)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  for (uint32_t l = 0; l < width(); ++l) {
    EXPECT_EQ(o1[2 * l], img.at<uint8_t>(c.x + l, 1)) << l;
    EXPECT_EQ(o1[2 * l + 1], img.at<uint8_t>(c.x + l, 2)) << l;
    EXPECT_EQ(o2[l], img.at<uint64_t>(c.x + 8 * int64_t(l), 1)) << l;
  }
}

TEST_P(ImageBlockIo, WritesRowsAndIgnoresOutOfBoundsUints) {
  RawImage img({kRGBA, kUnormInt8}, 24, 3);
  RawImage before = img;
  const Int2 c{16, 1};  // rows 1 and 2
  auto r = run("wr", {img.arg(), valueOf(c)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int64_t y = 0; y < 3; ++y)
    for (int64_t x = 0; x < 96; x += 4) {
      const int64_t l = (x - c.x) / 4, k = y - c.y;
      const bool written = x >= c.x && l < int64_t(width()) && k >= 0 && k < 2;
      EXPECT_EQ(img.at<uint32_t>(x, y),
                written ? uint32_t((k == 0 ? 1000 : 2000) + l) : before.at<uint32_t>(x, y))
          << x << "," << y;
    }
  // Rows 2 and 3 of a 3-row image: row 3 is ignored (4-byte pixels), not reported.
  RawImage edge({kRGBA, kUnormInt8}, 24, 3);
  auto e = run("wr", {edge.arg(), valueOf(Int2{0, 2})});
  EXPECT_TRUE(e.diagnostics.empty()) << describe(e);
  EXPECT_EQ(edge.at<uint32_t>(0, 2), 1000u);
}

TEST_P(ImageBlockIo, ReportsMisalignedWritesAndNonUniformCoordinates) {
  RawImage img({kRGBA, kUnormInt8}, 24, 3);
  auto r = run("wr", {img.arg(), valueOf(Int2{2, 0})});
  EXPECT_TRUE(has(r, DiagnosticKind::MisalignedBlockIo, "at byte x 2, but image block writes"))
      << describe(r);
  auto s = run("wrskew", {img.arg(), valueOf(Int2{0, 0})});
  EXPECT_TRUE(has(s, DiagnosticKind::NonUniformArgument,
                  "intel_sub_group_block_write coordinate must be the same in every lane"))
      << describe(s);
  RawImage wide({kRGBA, kFloat}, 4, 2);
  auto w = run("wr", {wide.arg(), valueOf(Int2{0, 0})});
  EXPECT_TRUE(has(w, DiagnosticKind::ImageMisuse, "16-byte pixels")) << describe(w);
}

INSTANTIATE_TEST_SUITE_P(OptLevelsAndWidths, ImageBlockIo,
                         ::testing::Combine(::testing::Values("-O0", "-O2"),
                                            ::testing::Values(8u, 16u)),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param) + 1) + "_sg" +
                                  std::to_string(std::get<1>(info.param));
                         });

}  // namespace
}  // namespace spvsim
