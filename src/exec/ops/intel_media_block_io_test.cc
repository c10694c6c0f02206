// cl_intel_media_block_io end to end (-O0 and -O2, sub-group sizes 8 and 16) against a
// host model written from the extension's text: the width x height region of E-byte
// elements at (byte x, row y), taken in row-major order, is re-organised into rows of
// S (sub-group size) elements, so component k of lane l is region element k * S + l;
// region elements past N * S are dropped; components past the region are undefined on
// reads and not written on writes; reads outside the image replicate the nearest edge
// texel (texels of at most E bytes), writes outside it are dropped. Then the
// diagnostics: misaligned x and width, heights over the limit, non-uniform coordinates,
// out-of-bounds reads of texels larger than the element, undefined tail components.
#include <gtest/gtest.h>

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

// One media block kernel: element bytes, components, width (elements), height.
struct Shape {
  const char* name;
  uint32_t e, n;
  int32_t width, height;
};

const char* typeOf(uint32_t e) { return e == 1 ? "uchar" : e == 2 ? "ushort" : "uint"; }
const char* suffixOf(uint32_t e) { return e == 1 ? "uc" : e == 2 ? "us" : "ui"; }
std::string vec(uint32_t n) { return n == 1 ? "" : std::to_string(n); }

// clang-15 declares none of the built-ins: kernels declare the prototypes.
std::string readKernel(const Shape& s) {
  const std::string t = typeOf(s.e), tn = t + vec(s.n),
                    fn =
                        std::string("intel_sub_group_media_block_read_") + suffixOf(s.e) + vec(s.n);
  const std::string store =
      s.n == 1 ? "out[get_global_id(0)] = v;" : "vstore" + vec(s.n) + "(v, get_global_id(0), out);";
  return fmt::format(
      "{0} __attribute__((overloadable)) {1}(int2, int, int, read_only image2d_t);\n"
      "kernel void {2}(read_only image2d_t img, int2 c, global {3}* out) {{\n"
      "  {0} v = {1}(c, {4}, {5}, img);\n  {6}\n}}\n",
      tn, fn, s.name, t, s.width, s.height, store);
}

std::string writeKernel(const Shape& s) {
  const std::string t = typeOf(s.e), tn = t + vec(s.n),
                    fn = std::string("intel_sub_group_media_block_write_") + suffixOf(s.e) +
                         vec(s.n);
  const std::string load =
      s.n == 1 ? "in[get_global_id(0)]" : "vload" + vec(s.n) + "(get_global_id(0), in)";
  return fmt::format(
      "void __attribute__((overloadable)) {1}(int2, int, int, {0}, write_only image2d_t);\n"
      "kernel void {2}(write_only image2d_t img, int2 c, global const {3}* in) {{\n"
      "  {1}(c, {4}, {5}, {6}, img);\n}}\n",
      tn, fn, s.name, t, s.width, s.height, load);
}

const Shape kReads[] = {
    {"rd_ui_1x16", 4, 1, 1, 16},   // the spec's first example: a 1-dword x 16-row edge
    {"rd_us4_16x2", 2, 4, 16, 2},  // the spec's second example
    {"rd_uc8_32x4", 1, 8, 32, 4}, {"rd_ui8_8x8", 4, 8, 8, 8},       {"rd_us16_4x32", 2, 16, 4, 32},
    {"rd_uc_4x4", 1, 1, 4, 4},    {"rd_uc16_12x16", 1, 16, 12, 16}, {"rd_ui2_2x5", 4, 2, 2, 5},
};
const Shape kWrites[] = {
    {"wr_ui2_4x4", 4, 2, 4, 4},
    {"wr_us2_8x2", 2, 2, 8, 2},
    {"wr_uc4_16x4", 1, 4, 16, 4},
    {"wr_us8_6x5", 2, 8, 6, 5},
};
const Shape kBadHeight = {"rd_ui_1x65", 4, 1, 1, 65};
const Shape kBadWidth = {"rd_uc2_6x2", 1, 2, 6, 2};

std::string source() {
  std::string s;
  for (const Shape& r : kReads) s += readKernel(r);
  for (const Shape& w : kWrites) s += writeKernel(w);
  s += readKernel(kBadHeight) + readKernel(kBadWidth);
  s += R"(
    uint __attribute__((overloadable)) intel_sub_group_media_block_read_ui(int2, int, int,
                                                                          read_only image2d_t);
    kernel void rdskew(read_only image2d_t img, int2 c, global uint* out) {
      int l = get_sub_group_local_id();
      out[get_global_id(0)] = intel_sub_group_media_block_read_ui(c + (int2)(0, l == 3), 1, 16, img);
    }
  )";
  return s;
}

struct RawImage {
  ImageDesc desc;
  std::vector<uint8_t> data;
  uint32_t texel;
  RawImage(ImageFormat f, uint64_t w, uint64_t h) : texel(bytesPerPixel(f)) {
    desc.type = ImageType::Image2D;
    desc.format = f;
    desc.width = w;
    desc.height = h;
    desc.rowPitch = w * texel;
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
  int64_t rowBytes() const { return int64_t(desc.rowPitch); }
  bool inside(int64_t x, int64_t y) const {
    return x >= 0 && x < rowBytes() && y >= 0 && y < int64_t(desc.height);
  }
  // Byte px of row y as a read sees it: outside the image, the same byte of the nearest
  // edge texel (the spec's B0B0B0B0 / B0B1B0B1 replication).
  uint8_t readByte(int64_t px, int64_t y) const {
    const int64_t t = texel, texels = int64_t(desc.width);
    int64_t tx = px >= 0 ? px / t : -((-px + t - 1) / t);  // floor
    const int64_t within = px - tx * t;
    tx = std::min(std::max<int64_t>(tx, 0), texels - 1);
    y = std::min(std::max<int64_t>(y, 0), int64_t(desc.height) - 1);
    return data[size_t(y * rowBytes() + tx * t + within)];
  }
};

// Where component k of lane l lies in the region, or nullopt past the region.
std::optional<std::pair<int64_t, int64_t>> place(const Shape& s, Int2 c, uint32_t sg, uint32_t l,
                                                 uint32_t k) {
  const int64_t i = int64_t(k) * sg + l;
  if (i >= int64_t(s.width) * s.height) return std::nullopt;
  return std::pair<int64_t, int64_t>{c.x + (i % s.width) * s.e, c.y + i / s.width};
}

class MediaBlockIo : public ::testing::TestWithParam<std::tuple<const char*, uint32_t>> {
 protected:
  void SetUp() override {
    program_ = Program::load(testing::compileOpenCL(source(), std::get<0>(GetParam())));
  }
  uint32_t sg() const { return std::get<1>(GetParam()); }
  LaunchResult run(const std::string& kernel, std::vector<ArgBinding> args) {
    NDRange range;
    range.global = {sg(), 1, 1};
    range.local = {sg(), 1, 1};
    range.localGiven = true;
    LaunchOptions options;
    options.subGroupSize = sg();
    return program_->launch(kernel, range, args, options);
  }
  static bool has(const LaunchResult& r, DiagnosticKind kind, const std::string& text) {
    for (const auto& d : r.diagnostics)
      if (d.kind == kind && d.message.find(text) != std::string::npos) return true;
    return false;
  }
  // Reads shape s at c and compares every defined component with the model; the
  // undefined tail (if any) must be reported and is the only diagnostic.
  void checkRead(const Shape& s, RawImage& img, Int2 c) {
    std::vector<uint8_t> out(size_t(sg()) * s.n * s.e, 0xee);
    auto r = run(s.name, {img.arg(), valueOf(c), bufferOf(out)});
    const bool tail = int64_t(s.width) * s.height < int64_t(s.n) * sg();
    for (const auto& d : r.diagnostics)
      EXPECT_EQ(d.kind, DiagnosticKind::UninitializedRead) << s.name << "\n" << describe(r);
    EXPECT_EQ(tail, has(r, DiagnosticKind::UninitializedRead, "its value is undefined"))
        << s.name << "\n"
        << describe(r);
    for (uint32_t l = 0; l < sg(); ++l)
      for (uint32_t k = 0; k < s.n; ++k) {
        const auto at = place(s, c, sg(), l, k);
        if (!at) continue;
        for (uint32_t b = 0; b < s.e; ++b)
          EXPECT_EQ(out[(size_t(l) * s.n + k) * s.e + b], img.readByte(at->first + b, at->second))
              << s.name << " at " << c.x << "," << c.y << " lane " << l << " component " << k
              << " byte " << b;
      }
  }
  std::shared_ptr<Program> program_;
};

TEST_P(MediaBlockIo, ReadsRegionsInsideTheImage) {
  RawImage img({kR, kUnsignedInt8}, 96, 48);
  for (const Shape& s : kReads) checkRead(s, img, Int2{8, 3});
}

TEST_P(MediaBlockIo, ReadsReplicateTheEdgeTexel) {
  // Byte, word and dword texels; coordinates left of, right of, above and below.
  for (ImageFormat f : {ImageFormat{kR, kUnsignedInt8}, ImageFormat{kR, kUnsignedInt16},
                        ImageFormat{kRGBA, kUnormInt8}}) {
    RawImage img(f, 24 / bytesPerPixel(f) * 2, 10);  // 48-byte rows
    for (const Shape& s : kReads) {
      if (img.texel > s.e) continue;  // undefined: see ReportsUndefinedReads
      for (Int2 c : {Int2{-4, 2}, Int2{-8, -3}, Int2{40, 7}, Int2{44, 1}}) checkRead(s, img, c);
    }
  }
}

TEST_P(MediaBlockIo, WritesRegionsAndDropsWhatIsOutside) {
  for (const Shape& s : kWrites)
    for (Int2 c : {Int2{4, 1}, Int2{36, 6}, Int2{-8, -1}}) {
      RawImage img({kR, kUnsignedInt8}, 48, 8);
      const RawImage before = img;
      std::vector<uint8_t> in(size_t(sg()) * s.n * s.e);
      for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(200 - i);
      auto r = run(s.name, {img.arg(), valueOf(c), bufferOf(in)});
      ASSERT_TRUE(r.diagnostics.empty()) << s.name << "\n" << describe(r);
      std::vector<uint8_t> expect = before.data;
      for (uint32_t l = 0; l < sg(); ++l)
        for (uint32_t k = 0; k < s.n; ++k) {
          const auto at = place(s, c, sg(), l, k);
          if (!at) continue;
          for (uint32_t b = 0; b < s.e; ++b)
            if (img.inside(at->first + b, at->second))
              expect[size_t(at->second * img.rowBytes() + at->first + b)] =
                  in[(size_t(l) * s.n + k) * s.e + b];
        }
      EXPECT_EQ(img.data, expect) << s.name << " at " << c.x << "," << c.y;
    }
}

TEST_P(MediaBlockIo, ReportsMisuse) {
  RawImage img({kR, kUnsignedInt8}, 64, 80);
  std::vector<uint32_t> out(sg());
  auto a = run("rd_ui_1x16", {img.arg(), valueOf(Int2{2, 0}), bufferOf(out)});
  EXPECT_TRUE(has(a, DiagnosticKind::MisalignedBlockIo, "at byte x 2 with a width of 4 bytes"))
      << describe(a);
  std::vector<uint8_t> out8(2 * sg());
  auto w = run("rd_uc2_6x2", {img.arg(), valueOf(Int2{0, 0}), bufferOf(out8)});
  EXPECT_TRUE(has(w, DiagnosticKind::MisalignedBlockIo, "with a width of 6 bytes")) << describe(w);
  auto h = run("rd_ui_1x65", {img.arg(), valueOf(Int2{0, 0}), bufferOf(out)});
  EXPECT_TRUE(has(h, DiagnosticKind::ImageMisuse, "4-byte by 65-row region")) << describe(h);
  auto s = run("rdskew", {img.arg(), valueOf(Int2{0, 0}), bufferOf(out)});
  EXPECT_TRUE(has(s, DiagnosticKind::NonUniformArgument,
                  "intel_sub_group_media_block_read coordinate must be the same"))
      << describe(s);
}

TEST_P(MediaBlockIo, ReportsUndefinedReads) {
  // Dword texels read as words outside the image: undefined, reported, not replicated.
  RawImage img({kRGBA, kUnormInt8}, 12, 4);
  std::vector<uint16_t> out(4 * sg());
  auto r = run("rd_us4_16x2", {img.arg(), valueOf(Int2{-4, 0}), bufferOf(out)});
  EXPECT_TRUE(has(r, DiagnosticKind::OutOfBounds, "with 4-byte texels")) << describe(r);
  // 16-byte texels: undefined for the whole extension.
  RawImage wide({kRGBA, kFloat}, 4, 4);
  auto w = run("rd_us4_16x2", {wide.arg(), valueOf(Int2{0, 0}), bufferOf(out)});
  EXPECT_TRUE(has(w, DiagnosticKind::ImageMisuse, "16-byte texels")) << describe(w);
}

INSTANTIATE_TEST_SUITE_P(OptLevelsAndWidths, MediaBlockIo,
                         ::testing::Combine(::testing::Values("-O0", "-O2"),
                                            ::testing::Values(8u, 16u)),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param) + 1) + "_sg" +
                                  std::to_string(std::get<1>(info.param));
                         });

}  // namespace
}  // namespace spvsim
