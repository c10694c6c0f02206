#include "tools/cli/sim_file.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "spirv/error.h"
#include "tools/cli/test_util.h"

namespace spvsim::tools {
namespace {

using testing::bytesOf;
using Kind = spirv::ParamKind;

spirv::ParamSignature param(uint32_t index, std::string name, std::string type, Kind kind,
                            uint64_t size = 8) {
  spirv::ParamSignature p;
  p.index = index;
  p.name = std::move(name);
  p.typeName = std::move(type);
  p.kind = kind;
  p.size = size;
  // As the loader has them: images live in global memory (spirv/kernel_signature.h).
  using AS = spirv::AddressSpace;
  p.addressSpace = kind == Kind::LocalPointer      ? AS::Local
                   : kind == Kind::ConstantPointer ? AS::Constant
                   : kind == Kind::Value           ? AS::Private
                                                   : AS::Global;
  return p;
}

const std::vector<spirv::ParamSignature> kSaxpy = {param(0, "a", "float", Kind::Value, 4),
                                                   param(1, "x", "float*", Kind::GlobalPointer),
                                                   param(2, "y", "float*", Kind::GlobalPointer)};

constexpr const char* kSaxpyHeader = "kernels.cl\nsaxpy\n8 1 1\n4 1 1\n";

std::vector<ArgValue> readArgs(const std::string& text,
                               const std::vector<spirv::ParamSignature>& params) {
  SimFile sim(text, "t.sim");
  sim.readSetup();
  return sim.readArguments(params);
}

std::string errorOf(const std::string& text, const std::vector<spirv::ParamSignature>& params) {
  try {
    readArgs(text, params);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Input);
    return e.what();
  }
  return "no error";
}

// The example of Oclgrind's documentation.
TEST(SimFile, OclgrindExample) {
  SimFile sim(
      std::string(kSaxpyHeader) +
          "<size=4 float>\n2.5\n<size=32 float range=0:1:7>\n<size=32 float fill=10 dump>\n",
      "t.sim");
  const SimSetup setup = sim.readSetup();
  EXPECT_EQ(setup.program, "kernels.cl");
  EXPECT_EQ(setup.kernel, "saxpy");
  EXPECT_EQ(setup.global, (std::array<uint64_t, 3>{8, 1, 1}));
  EXPECT_EQ(setup.local, (std::array<uint64_t, 3>{4, 1, 1}));
  const auto args = sim.readArguments(kSaxpy);
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[0].kind, ArgValue::Kind::Value);
  EXPECT_EQ(args[0].bytes, bytesOf<float>({2.5f}));
  EXPECT_EQ(args[1].kind, ArgValue::Kind::Buffer);
  EXPECT_EQ(args[1].bytes, bytesOf<float>({0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_FALSE(args[1].dump);
  EXPECT_EQ(args[2].bytes, bytesOf<float>({10, 10, 10, 10, 10, 10, 10, 10}));
  EXPECT_TRUE(args[2].dump);
  EXPECT_EQ(args[2].type, (ElementType{Scalar::Float, 1}));
  EXPECT_EQ(args[2].count, 8u);
}

TEST(SimFile, CommentsAndValuesAcrossLines) {
  const auto args = readArgs(
      "# a comment line\n  prog.spv   # the program\nk\n2 2\n1\n1 1 1\n"
      "<size=4 float> 0.5 # value on the header's line\n"
      "<size=16 float> 1 2\n 3\n\n4\n"
      "<size=8 float>5 6",
      kSaxpy);
  EXPECT_EQ(args[0].bytes, bytesOf<float>({0.5f}));
  EXPECT_EQ(args[1].bytes, bytesOf<float>({1, 2, 3, 4}));
  EXPECT_EQ(args[2].bytes, bytesOf<float>({5, 6}));
}

TEST(SimFile, TypeDefaultsToTheParameters) {
  const std::vector<spirv::ParamSignature> params = {param(0, "u", "uint*", Kind::GlobalPointer),
                                                     param(1, "v", "void*", Kind::GlobalPointer),
                                                     param(2, "s", "short2", Kind::Value, 4)};
  const auto args = readArgs(
      std::string(kSaxpyHeader) + "<size=12>\n1 2 3\n<size=2 fill=7>\n<size=4>\n-1 2\n", params);
  EXPECT_EQ(args[0].type.scalar, Scalar::UInt);
  EXPECT_EQ(args[0].bytes, bytesOf<uint32_t>({1, 2, 3}));
  EXPECT_EQ(args[1].type.scalar, Scalar::UChar);
  EXPECT_EQ(args[1].bytes, (std::vector<uint8_t>{7, 7}));
  EXPECT_EQ(args[2].kind, ArgValue::Kind::Value);
  EXPECT_EQ(args[2].bytes, bytesOf<int16_t>({-1, 2}));
}

TEST(SimFile, HexLocalNullNoinitAndRanges) {
  const std::vector<spirv::ParamSignature> params = {param(0, "h", "uint*", Kind::GlobalPointer),
                                                     param(1, "l", "float*", Kind::LocalPointer),
                                                     param(2, "n", "int*", Kind::GlobalPointer),
                                                     param(3, "z", "int*", Kind::GlobalPointer),
                                                     param(4, "r", "short*", Kind::ConstantPointer),
                                                     param(5, "f", "double*", Kind::GlobalPointer)};
  const auto args = readArgs(std::string(kSaxpyHeader) +
                                 "<size=8 uint hex dump>\nff 0x10\n"
                                 "<size=64>\n"
                                 "<null>\n"
                                 "<size=8 int noinit ro dump>\n"
                                 "<size=6 short range=10:-5:0>\n"
                                 "<size=32 double range=0:0.5:1.5 wo>\n",
                             params);
  EXPECT_EQ(args[0].bytes, bytesOf<uint32_t>({255, 16}));
  EXPECT_TRUE(args[0].hex);
  EXPECT_TRUE(args[0].dump);
  EXPECT_EQ(args[1].kind, ArgValue::Kind::Local);
  EXPECT_EQ(args[1].localBytes, 64u);
  EXPECT_EQ(args[2].kind, ArgValue::Kind::Null);
  EXPECT_EQ(args[3].bytes, bytesOf<int32_t>({0, 0}));
  EXPECT_EQ(args[4].bytes, bytesOf<int16_t>({10, 5, 0}));
  EXPECT_EQ(args[5].bytes, bytesOf<double>({0, 0.5, 1, 1.5}));
}

// Oclgrind adds INC to a running float; 0.1f added three times is not 3 * 0.1f.
TEST(SimFile, FloatRangeAccumulatesLikeOclgrind) {
  const std::vector<spirv::ParamSignature> params = {param(0, "x", "float*", Kind::GlobalPointer)};
  const auto args = readArgs(std::string(kSaxpyHeader) + "<size=16 float range=1:1:4>\n", params);
  EXPECT_EQ(args[0].bytes, bytesOf<float>({1, 2, 3, 4}));
  const float step = 0.25f;
  const auto quarter =
      readArgs(std::string(kSaxpyHeader) + "<size=12 float range=0:0.25:0.5>\n", params);
  EXPECT_EQ(quarter[0].bytes, bytesOf<float>({0, step, step + step}));
}

// Buffers of 4 MiB or more with fill, range or noinit are written after the reading, on
// several threads: the same contents, the same errors at the same positions, values
// beside them read in order.
TEST(SimFile, LargeBuffersWrittenAfterTheReading) {
  const std::vector<spirv::ParamSignature> params = {
      param(0, "a", "float*", Kind::GlobalPointer), param(1, "b", "float*", Kind::GlobalPointer),
      param(2, "c", "int*", Kind::GlobalPointer),   param(3, "d", "uint*", Kind::GlobalPointer),
      param(4, "e", "short*", Kind::GlobalPointer), param(5, "s", "float", Kind::Value, 4)};
  const uint64_t n = 1 << 20;  // 4 MiB of 4-byte elements
  const std::string text = fmt::format(
      "<size={0} float fill=2.5>\n<size={0} float range=0:0.25:{1}>\n"
      "<size={0} int fill=0 dump>\n<size={0} uint noinit>\n<size=4 short>\n7 8\n"
      "<size=4 float>\n1.5\n",
      4 * n, double(n - 1) * 0.25);
  const auto args = readArgs(std::string(kSaxpyHeader) + text, params);
  ASSERT_EQ(args.size(), 6u);
  for (size_t i = 0; i < 4; ++i) ASSERT_EQ(args[i].bytes.size(), 4 * n) << i;
  const float* a = reinterpret_cast<const float*>(args[0].bytes.data());
  EXPECT_EQ(a[0], 2.5f);
  EXPECT_EQ(a[n - 1], 2.5f);
  // A running float sum, as for small buffers (FloatRangeAccumulatesLikeOclgrind).
  const float* b = reinterpret_cast<const float*>(args[1].bytes.data());
  float running = 0;
  for (uint64_t i = 0; i < n; ++i, running += 0.25f) ASSERT_EQ(b[i], running) << i;
  EXPECT_TRUE(
      std::all_of(args[2].bytes.begin(), args[2].bytes.end(), [](uint8_t v) { return !v; }));
  EXPECT_TRUE(args[2].dump);
  EXPECT_TRUE(args[3].noinit);
  EXPECT_TRUE(
      std::all_of(args[3].bytes.begin(), args[3].bytes.end(), [](uint8_t v) { return !v; }));
  EXPECT_EQ(args[4].bytes, bytesOf<int16_t>({7, 8}));
  EXPECT_EQ(args[5].bytes, bytesOf<float>({1.5f}));

  // Checked when read: the position is the header's.
  EXPECT_NE(errorOf(std::string(kSaxpyHeader) +
                        fmt::format("<size=4 float>\n1\n<size={} float range=0:1:5>\n", 4 * n),
                    kSaxpy)
                .find("t.sim:7: range=0:1:5 gives 6 values but size= holds 1048576"),
            std::string::npos);
  EXPECT_NE(errorOf(std::string(kSaxpyHeader) +
                        fmt::format("<size=4 float>\n1\n<size={} float fill=x>\n", 4 * n),
                    kSaxpy)
                .find("t.sim:7:"),
            std::string::npos);
}

TEST(SimFile, SetupErrors) {
  auto setupError = [](const std::string& text) {
    try {
      SimFile(text, "t.sim").readSetup();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(setupError(""),
            "t.sim:1: unexpected end of file, expected the program file name "
            "(program file)");
  EXPECT_EQ(setupError("p.cl\nk\n8 1\n"),
            "t.sim:3: unexpected end of file, expected a global size (global size)");
  EXPECT_EQ(setupError("p.cl\nk\n8 1 1\n4 0 1\n"),
            "t.sim:4: expected a local size (a positive number), found '0' (local size)");
  EXPECT_EQ(setupError("p.cl\nk\n8 x 1\n4 1 1\n"),
            "t.sim:3: expected a global size (a positive number), found 'x' (global size)");
}

TEST(SimFile, HeaderErrors) {
  const std::string h = kSaxpyHeader;
  const std::string ok1 = "<size=4 float>\n1\n";
  const std::string ok12 = ok1 + "<size=4 float>\n1\n";
  EXPECT_EQ(errorOf(h + "<float>\n1\n", kSaxpy), "t.sim:5: size=BYTES is required (argument 0: a)");
  EXPECT_EQ(errorOf(h + "<size=4 float bogus>\n1\n", kSaxpy),
            "t.sim:5: unknown header token 'bogus' (argument 0: a)");
  EXPECT_EQ(errorOf(h + "<size=4 float int>\n1\n", kSaxpy),
            "t.sim:5: the argument type is given twice (argument 0: a)");
  EXPECT_EQ(errorOf(h + "<size=4 float\n1\n", kSaxpy),
            "t.sim:5: missing '>' at the end of the argument header (argument 0: a)");
  EXPECT_EQ(errorOf(h + "1.5\n", kSaxpy),
            "t.sim:5: expected an argument header <...>, found '1.5' (argument 0: a)");
  EXPECT_EQ(errorOf(h + ok1, kSaxpy),
            "t.sim:6: unexpected end of file, expected an argument header <...> (argument 1: x)");
  EXPECT_EQ(errorOf(h + ok1 + "<size=6 float>\n", kSaxpy),
            "t.sim:7: size=6 is not a whole multiple of the 4-byte float (argument 1: x)");
  EXPECT_EQ(errorOf(h + ok1 + "<size=8 float fill=1 range=0:1:1>\n", kSaxpy),
            "t.sim:7: give at most one of fill, range and noinit (argument 1: x)");
  EXPECT_EQ(errorOf(h + ok1 + "<size=8 null>\n", kSaxpy),
            "t.sim:7: 'null' cannot be combined with size, fill, range, noinit or dump "
            "(argument 1: x)");
  EXPECT_EQ(errorOf(h + "<size=4 float dump>\n1\n", kSaxpy),
            "t.sim:5: dump, noinit, null, ro and wo are only valid for global or constant "
            "buffers (argument 0: a)");
  EXPECT_EQ(errorOf(h + ok1 + "<size=8 float ro wo>\n1 2\n", kSaxpy),
            "t.sim:7: 'ro' and 'wo' are mutually exclusive (argument 1: x)");
  EXPECT_EQ(errorOf(h + ok1 + "<size= float>\n", kSaxpy),
            "t.sim:7: 'size' needs a value after '=' (argument 1: x)");
  EXPECT_EQ(errorOf(h + ok1 + "<size=8 float range=0:1>\n", kSaxpy),
            "t.sim:7: expected range=START:INC:END (argument 1: x)");
  EXPECT_EQ(errorOf(h + ok1 + "<size=8 float range=0:1:5>\n", kSaxpy),
            "t.sim:7: range=0:1:5 gives 6 values but size= holds 2 (argument 1: x)");
  EXPECT_EQ(errorOf(h + ok12 + "<size=4 float>\n1\n<size=4>\n", kSaxpy),
            "t.sim:11: unexpected '<size=4>': the kernel takes 3 arguments (after the last "
            "argument)");
}

TEST(SimFile, ValueErrors) {
  const std::vector<spirv::ParamSignature> chars = {param(0, "c", "char*", Kind::GlobalPointer)};
  EXPECT_EQ(errorOf(std::string(kSaxpyHeader) + "<size=2 char>\n1\n200\n", chars),
            "t.sim:7: 200 is out of range for char (-128..127) (argument 0: c)");
  EXPECT_EQ(errorOf(std::string(kSaxpyHeader) + "<size=2 char>\n1\n", chars),
            "t.sim:6: unexpected end of file, expected a value (argument 0: c)");
  EXPECT_EQ(errorOf(std::string(kSaxpyHeader) + "<size=2 char fill=x>\n", chars),
            "t.sim:5: 'x' is not a valid char value (argument 0: c)");
}

TEST(SimFile, ParameterKindErrors) {
  const std::vector<spirv::ParamSignature> params = {
      param(0, "l", "float*", Kind::LocalPointer), param(1, "c", "float*", Kind::ConstantPointer),
      param(2, "s", "struct S*", Kind::GlobalPointer), param(3, "i", "image2d_t", Kind::Image)};
  const std::string h = kSaxpyHeader;
  EXPECT_EQ(errorOf(h + "<size=8 fill=1>\n", params),
            "t.sim:5: a local argument takes no initializer (argument 0: l)");
  EXPECT_EQ(errorOf(h + "<float>\n", params),
            "t.sim:5: a local argument needs size=BYTES (more than 0) (argument 0: l)");
  EXPECT_EQ(errorOf(h + "<size=8>\n<size=4 float ro>\n1\n", params),
            "t.sim:6: 'ro' and 'wo' are only valid for global buffers (argument 1: c)");
  EXPECT_EQ(errorOf(h + "<size=8>\n<null>\n<size=8>\n", params),
            "t.sim:7: the header names no type and the parameter's type 'struct S*' gives "
            "none; add one such as int (argument 2: s)");
  EXPECT_EQ(errorOf(h + "<size=8>\n<null>\n<null>\n<size=8>\n", params),
            "t.sim:8: global image2d_t i takes <size=8> with an image or sampler: e.g. <image2d "
            "RGBA,UNORM_INT8[4,4]> or <sampler NORMALIZED,CLAMP,NEAREST> (argument 3: i)");
}

TEST(SimFile, ImagesAndSamplers) {
  const std::vector<spirv::ParamSignature> params = {param(0, "src", "image2d_t", Kind::Image),
                                                     param(1, "dst", "image1d_t", Kind::Image),
                                                     param(2, "s", "sampler_t", Kind::Sampler)};
  const auto args = readArgs(std::string(kSaxpyHeader) +
                                 "<image2d R,UNSIGNED_INT16[3,2] dump>\n1 2 3\n4 5 6\n"
                                 "<image1d RGBA,FLOAT[2] fill=0.5>\n"
                                 "<sampler NORMALIZED,REPEAT,LINEAR>\n",
                             params);
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[0].kind, ArgValue::Kind::Image);
  EXPECT_TRUE(args[0].dump);
  EXPECT_EQ(args[0].image.width, 3u);
  EXPECT_EQ(args[0].image.height, 2u);
  EXPECT_EQ(args[0].bytes, bytesOf<uint16_t>({1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(args[1].bytes, bytesOf<float>({0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f}));
  EXPECT_EQ(args[2].kind, ArgValue::Kind::Sampler);
  EXPECT_TRUE(args[2].sampler.normalizedCoords);
  EXPECT_EQ(args[2].sampler.addressing, 0x1133u);  // CL_ADDRESS_REPEAT
  EXPECT_EQ(args[2].sampler.filter, 0x1141u);      // CL_FILTER_LINEAR
  const std::string h = kSaxpyHeader;
  EXPECT_EQ(errorOf(h + "<image2d R,FLOAT[2,1] size=8>\n", params),
            "t.sim:5: unknown image header token 'size=8' (fill=V, range=.., noinit, dump, hex) "
            "(argument 0: src)");
  EXPECT_EQ(errorOf(h + "<image2d R,FLOAT[2]>\n", params),
            "t.sim:5: image2d takes [W,H], not [2] (argument 0: src)");
  EXPECT_EQ(errorOf(h + "<image2d R,FLOAT[2,1]>\n1\n", params),
            "t.sim:6: unexpected end of file, expected a value (argument 0: src)");
  EXPECT_EQ(errorOf(h + "<image2d R,FLOAT[1,1] noinit>\n<image1d R,FLOAT[1] noinit>\n"
                        "<sampler NORMALIZED,CLAMP,NEAREST dump>\n",
                    params),
            "t.sim:7: unexpected 'dump' after the sampler (argument 2: s)");
}

// struct { int a; float b; short c; } by value: 12 bytes, c at 8, 2 bytes of padding.
std::vector<uint8_t> structBytes() {
  std::vector<uint8_t> b(12, 0);
  const int32_t a = 3;
  const float f = 2.5f;
  const int16_t c = 7;
  std::memcpy(&b[0], &a, 4);
  std::memcpy(&b[4], &f, 4);
  std::memcpy(&b[8], &c, 2);
  return b;
}

const std::vector<spirv::ParamSignature> kStructParams = {
    param(0, "s", "S", Kind::ByValStruct, 12), param(1, "out", "float*", Kind::GlobalPointer)};

TEST(SimFile, StructByValueMemberByMember) {
  const auto args = readArgs(
      std::string(kSaxpyHeader) + "<struct=int,float,short> 3 2.5\n7\n<size=4 float fill=0>\n",
      kStructParams);
  ASSERT_EQ(args.size(), 2u);
  EXPECT_EQ(args[0].kind, ArgValue::Kind::Value);
  EXPECT_TRUE(args[0].isStruct());
  EXPECT_EQ(args[0].bytes, structBytes());
  EXPECT_EQ(args[0].text, "<struct=int,float,short>");
}

// Oclgrind's form: the struct's bytes as values of one type (2.5f is 0x40200000).
TEST(SimFile, StructByValueAsBytesOfOneType) {
  const auto args = readArgs(
      std::string(kSaxpyHeader) + "<size=12 int hex> 3 40200000 7\n<size=4 float fill=0>\n",
      kStructParams);
  ASSERT_EQ(args.size(), 2u);
  EXPECT_TRUE(args[0].isStruct());
  EXPECT_EQ(args[0].bytes, structBytes());
}

TEST(SimFile, StructErrors) {
  const std::string h = kSaxpyHeader;
  EXPECT_EQ(errorOf(h + "<struct=int,float>\n1\n", kSaxpy),
            "t.sim:5: struct=TYPE,... is only valid for a struct passed by value (argument 0: a)");
  EXPECT_EQ(errorOf(h + "<struct=int,bogus> 1 2\n", kStructParams),
            "t.sim:5: 'bogus' in struct=int,bogus is not a member type (argument 0: s)");
  EXPECT_EQ(errorOf(h + "<size=8 struct=int,float> 1 2\n", kStructParams),
            "t.sim:5: struct=TYPE,... takes its values member by member: no type, size, fill, "
            "range or noinit (argument 0: s)");
  EXPECT_EQ(errorOf(h + "<struct=int,float4> 1 2 3\n", kStructParams),
            "t.sim:5: unexpected end of file, expected a struct member value (argument 0: s)");
  EXPECT_EQ(errorOf(h + "<size=12> 1 2 3\n", kStructParams),
            "t.sim:5: the header names no type and the parameter's type 'S' gives none; add one "
            "such as int (argument 0: s)");
}

// Oclgrind allocates a size=0 buffer: a valid pointer to no bytes.
TEST(SimFile, EmptyBuffers) {
  const auto args = readArgs(
      std::string(kSaxpyHeader) + "<size=4 float> 1\n<size=0 float>\n<size=0 dump>\n", kSaxpy);
  ASSERT_EQ(args.size(), 3u);
  for (size_t i : {1, 2}) {
    EXPECT_EQ(args[i].kind, ArgValue::Kind::Buffer);
    EXPECT_TRUE(args[i].bytes.empty());
    EXPECT_EQ(args[i].count, 0u);
  }
  EXPECT_TRUE(args[2].dump);
  EXPECT_EQ(errorOf(std::string(kSaxpyHeader) + "<size=0 float>\n", kSaxpy),
            "t.sim:5: size=0 is not a positive multiple of the 4-byte float (argument 0: a)");
}

// Every way of initialising a buffer gives an empty one at size=0 (fill=0 once wrote its
// value into the empty buffer's storage: a crash), and a bad value is still refused.
TEST(SimFile, EmptyBufferWithEveryInitialiser) {
  const std::string h = std::string(kSaxpyHeader) + "<size=4 float> 1\n<size=8 float> 1 2\n";
  for (const char* header :
       {"<size=0 fill=0>", "<size=0 float fill=0>", "<size=0 double fill=1e300>",
        "<size=0 char hex fill=0x7f>", "<size=0 int range=0:1:-1>", "<size=0 float noinit>",
        "<size=0 int ro fill=3>", "<size=0 int wo>", "<size=0 short fill=-1 dump>"}) {
    SCOPED_TRACE(header);
    const auto args = readArgs(h + header + "\n", kSaxpy);
    ASSERT_EQ(args.size(), 3u);
    EXPECT_EQ(args[2].kind, ArgValue::Kind::Buffer);
    EXPECT_TRUE(args[2].bytes.empty());
    EXPECT_EQ(args[2].count, 0u);
  }
  EXPECT_EQ(errorOf(h + "<size=0 int fill=x>\n", kSaxpy),
            "t.sim:7: 'x' is not a valid int value (argument 2: y)");
  EXPECT_EQ(errorOf(h + "<size=0 int range=0:1:0>\n", kSaxpy),
            "t.sim:7: range=0:1:0 gives 1 values but size= holds 0 (argument 2: y)");
}

}  // namespace
}  // namespace spvsim::tools
