#include "tools/cli/arg_spec.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "spirv/error.h"
#include "tools/cli/test_util.h"

namespace spvsim::tools {
namespace {

using testing::bytesOf;
using Kind = ArgValue::Kind;

std::string errorOf(std::string_view spec) {
  try {
    parseArgSpec(spec);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::InvalidArgument);
    return e.what();
  }
  return "no error";
}

// OpenCL C layout, worked by hand: int at 0, float at 4, short at 8, padded to 12 (the
// int's and float's 4-byte alignment); char at 0, float4 at 16 (its alignment), 32 bytes.
TEST(ArgSpec, StructsByValue) {
  ArgValue a = parseArgSpec("struct:int,float,short=20,1.25,-3");
  EXPECT_EQ(a.kind, Kind::Value);
  EXPECT_TRUE(a.isStruct());
  EXPECT_EQ(a.structName, "struct {int, float, short}");
  std::vector<uint8_t> want = bytesOf<int32_t>({20});
  for (auto part : {bytesOf<float>({1.25f}), bytesOf<int16_t>({-3}), std::vector<uint8_t>(2, 0)})
    want.insert(want.end(), part.begin(), part.end());
  EXPECT_EQ(a.bytes, want);
  ArgValue b = parseArgSpec("struct:char,float4=7,1,2,3,4");
  ASSERT_EQ(b.bytes.size(), 32u);
  EXPECT_EQ(b.bytes[0], 7);
  EXPECT_EQ(std::vector<uint8_t>(b.bytes.begin() + 16, b.bytes.end()),
            bytesOf<float>({1, 2, 3, 4}));
  EXPECT_EQ(errorOf("struct:int,float=1"),
            "--arg 'struct:int,float=1': the struct's members have 2 components but 1 value is "
            "given");
  EXPECT_EQ(errorOf("struct:int,float"),
            "--arg 'struct:int,float': expected struct:TYPE,TYPE,...=V,V,...");
  EXPECT_NE(errorOf("struct:int,blob=1,2").find("unknown type 'blob'"), std::string::npos);
}

TEST(ArgSpec, Scalars) {
  ArgValue a = parseArgSpec("int:5");
  EXPECT_EQ(a.kind, Kind::Value);
  EXPECT_EQ(a.type, (ElementType{Scalar::Int, 1}));
  EXPECT_EQ(a.bytes, bytesOf<int32_t>({5}));
  EXPECT_EQ(a.text, "int:5");
  EXPECT_EQ(parseArgSpec("float:2.5").bytes, bytesOf<uint32_t>({0x40200000}));
  EXPECT_EQ(parseArgSpec("half:1.5").bytes, bytesOf<uint16_t>({0x3E00}));
  EXPECT_EQ(parseArgSpec("double:-1").bytes, bytesOf<double>({-1.0}));
  EXPECT_EQ(parseArgSpec("char:-1").bytes, (std::vector<uint8_t>{0xff}));
  EXPECT_EQ(parseArgSpec("uchar:200").bytes, (std::vector<uint8_t>{200}));
  EXPECT_EQ(parseArgSpec("short:-300").bytes, bytesOf<int16_t>({-300}));
  EXPECT_EQ(parseArgSpec("ushort:65535").bytes, bytesOf<uint16_t>({65535}));
  EXPECT_EQ(parseArgSpec("uint:4000000000").bytes, bytesOf<uint32_t>({4000000000u}));
  EXPECT_EQ(parseArgSpec("long:-5").bytes, bytesOf<int64_t>({-5}));
  EXPECT_EQ(parseArgSpec("ulong:0xff").bytes, bytesOf<uint64_t>({255}));
  EXPECT_EQ(parseArgSpec("size_t:8").bytes, bytesOf<uint64_t>({8}));
}

TEST(ArgSpec, Vectors) {
  EXPECT_EQ(parseArgSpec("uint4:1,2,3,4").bytes, bytesOf<uint32_t>({1, 2, 3, 4}));
  EXPECT_EQ(parseArgSpec("int3:1,2,3").bytes, bytesOf<int32_t>({1, 2, 3, 0}));
  EXPECT_EQ(parseArgSpec("float4:0.5").bytes, bytesOf<float>({0.5f, 0.5f, 0.5f, 0.5f}));
  EXPECT_EQ(parseArgSpec("char2: 1 , -1 ").bytes, (std::vector<uint8_t>{1, 0xff}));
  EXPECT_EQ(parseArgSpec("double2:1,2").bytes.size(), 16u);
  EXPECT_EQ(parseArgSpec("uchar16:7").bytes, std::vector<uint8_t>(16, 7));
  EXPECT_EQ(parseArgSpec("half8:1").bytes.size(), 16u);
}

TEST(ArgSpec, Buffers) {
  ArgValue a = parseArgSpec("buffer:int[8]=range(0)");
  EXPECT_EQ(a.kind, Kind::Buffer);
  EXPECT_EQ(a.count, 8u);
  EXPECT_FALSE(a.dump);  // --dump decides
  EXPECT_EQ(a.bytes, bytesOf<int32_t>({0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(parseArgSpec("buffer:int[3]=range(5,2)").bytes, bytesOf<int32_t>({5, 7, 9}));
  EXPECT_EQ(parseArgSpec("buffer:float[2]=fill(1.5)").bytes, bytesOf<float>({1.5f, 1.5f}));
  EXPECT_EQ(parseArgSpec("buffer:int[2]").bytes, bytesOf<int32_t>({0, 0}));
  EXPECT_EQ(parseArgSpec("buffer:int[2]=zero").bytes, bytesOf<int32_t>({0, 0}));
  EXPECT_EQ(parseArgSpec("buffer:short[3]=values(1,-2,3)").bytes, bytesOf<int16_t>({1, -2, 3}));
  EXPECT_EQ(parseArgSpec("buffer:int[3]=random(1234567)").bytes, bytesOf<int32_t>({17, 73, 23}));
  // -5 + draw mod 11 (tools/buffer_init_test.cc works the draws).
  EXPECT_EQ(parseArgSpec("buffer:int[3]=random(1234567, -5, 5)").bytes,
            bytesOf<int32_t>({2, -5, -2}));
  EXPECT_EQ(parseArgSpec("buffer:float4[2]=fill(1,2,3,4)").bytes,
            bytesOf<float>({1, 2, 3, 4, 1, 2, 3, 4}));
  ArgValue v = parseArgSpec("buffer:int3[2]=zero");
  EXPECT_EQ(v.bytes.size(), 32u);
  EXPECT_EQ(v.type.name(), "int3");
}

TEST(ArgSpec, BufferFromFile) {
  const auto path = std::filesystem::path(::testing::TempDir()) / "arg_spec_file.bin";
  {
    std::ofstream f(path, std::ios::binary);
    const auto bytes = bytesOf<int32_t>({-1, 42});
    f.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  EXPECT_EQ(parseArgSpec("buffer:int[2]=file(" + path.string() + ")").bytes,
            bytesOf<int32_t>({-1, 42}));
  EXPECT_EQ(errorOf("buffer:int[3]=file(" + path.string() + ")"),
            "--arg 'buffer:int[3]=file(" + path.string() + ")': file '" + path.string() +
                "' has 8 bytes but the buffer needs 12");
  EXPECT_NE(errorOf("buffer:int[2]=file(/no/such/file)").find("cannot open '/no/such/file'"),
            std::string::npos);
}

TEST(ArgSpec, LocalAndNull) {
  ArgValue l = parseArgSpec("local:256");
  EXPECT_EQ(l.kind, Kind::Local);
  EXPECT_EQ(l.localBytes, 256u);
  EXPECT_EQ(parseArgSpec("local:0x100").localBytes, 256u);
  EXPECT_EQ(parseArgSpec("null").kind, Kind::Null);
}

TEST(ArgSpec, Errors) {
  EXPECT_EQ(errorOf("uchar:300"), "--arg 'uchar:300': 300 is out of range for uchar (0..255)");
  EXPECT_EQ(errorOf("int"), "--arg 'int': missing value: write int:VALUE");
  EXPECT_EQ(errorOf("foo:1"),
            "--arg 'foo:1': unknown type 'foo' (expected char, uchar, short, ushort, int, uint, "
            "long, ulong, half, float, double, size_t, or a vector such as float4)");
  EXPECT_EQ(errorOf("int2:1,2,3"),
            "--arg 'int2:1,2,3': int2 takes 2 values (or one for every component), not 3");
  EXPECT_EQ(errorOf("int:"), "--arg 'int:': '' is not a valid int value");
  EXPECT_EQ(errorOf("float:abc"), "--arg 'float:abc': 'abc' is not a valid float value");
  EXPECT_EQ(errorOf("whatever"),
            "--arg 'whatever': expected TYPE:VALUE, buffer:TYPE[N]=INIT, local:BYTES or null");
  EXPECT_EQ(errorOf("local:0"),
            "--arg 'local:0': local memory size '0' is not a positive "
            "number of bytes");
  EXPECT_EQ(errorOf("local:x"),
            "--arg 'local:x': local memory size 'x' is not a positive "
            "number of bytes");
}

TEST(ArgSpec, BufferErrors) {
  EXPECT_EQ(errorOf("buffer:int"),
            "--arg 'buffer:int': expected buffer:TYPE[N]=INIT, e.g. buffer:float[1024]=range(0)");
  EXPECT_EQ(errorOf("buffer:int[0]"),
            "--arg 'buffer:int[0]': buffer length '0' is not a positive number of elements");
  EXPECT_EQ(errorOf("buffer:int[-1]"),
            "--arg 'buffer:int[-1]': buffer length '-1' is not a positive number of elements");
  EXPECT_NE(errorOf("buffer:foo[3]").find("unknown type 'foo'"), std::string::npos);
  EXPECT_EQ(errorOf("buffer:int[3]=values(1,2)"),
            "--arg 'buffer:int[3]=values(1,2)': values() has 2 values but the buffer has 3 "
            "elements");
  EXPECT_EQ(errorOf("buffer:int[4]=bogus(1)"),
            "--arg 'buffer:int[4]=bogus(1)': unknown initializer 'bogus' (expected zero, fill, "
            "range, values, random or file)");
  EXPECT_NE(errorOf("buffer:int[4]=ones").find("unknown initializer 'ones'"), std::string::npos);
  EXPECT_NE(errorOf("buffer:int[4]fill(1)").find("expected '=INIT' after ']'"), std::string::npos);
  EXPECT_EQ(errorOf("buffer:int[4]=range(1,2,3)"),
            "--arg 'buffer:int[4]=range(1,2,3)': range() takes START or START,STEP");
  EXPECT_NE(errorOf("buffer:int[2]=random(x)").find("seed 'x'"), std::string::npos);
  EXPECT_EQ(errorOf("buffer:int[2]=random(1,2)"),
            "--arg 'buffer:int[2]=random(1,2)': random() takes SEED or SEED,LO,HI");
  EXPECT_NE(errorOf("buffer:float[2]=random(1,2,2)").find("needs finite LO < HI"),
            std::string::npos);
  EXPECT_NE(errorOf("buffer:uchar[2]=fill(256)").find("out of range"), std::string::npos);
  EXPECT_EQ(errorOf("buffer:double[1000000000]"),
            "--arg 'buffer:double[1000000000]': buffer of 1000000000 double elements is larger "
            "than 4294967296 bytes");
}

// Image shapes and layouts as DESIGN.md's contract and the OpenCL API describe them:
// channel values interleaved, x fastest, rows width * bytes-per-pixel apart.
TEST(ArgSpec, Images) {
  ArgValue a = parseArgSpec("image2d:RGBA,UNORM_INT8[4,2]=range(0)");
  EXPECT_EQ(a.kind, Kind::Image);
  EXPECT_EQ(a.image.type, ImageType::Image2D);
  EXPECT_EQ(a.image.format, (ImageFormat{0x10B5, 0x10D2}));  // CL_RGBA, CL_UNORM_INT8
  EXPECT_EQ(a.image.width, 4u);
  EXPECT_EQ(a.image.height, 2u);
  EXPECT_EQ(a.image.rowPitch, 16u);
  EXPECT_EQ(a.image.slicePitch, 32u);
  EXPECT_EQ(a.type.name(), "uchar");  // normalized channels as their stored integers
  EXPECT_EQ(a.count, 32u);
  std::vector<uint8_t> want(32);
  for (int i = 0; i < 32; ++i) want[i] = static_cast<uint8_t>(i);
  EXPECT_EQ(a.bytes, want);

  ArgValue f = parseArgSpec("image1d_array:r,float[3,2]=values(1,2,3,4,5,6)");
  EXPECT_EQ(f.image.type, ImageType::Image1DArray);
  EXPECT_EQ(f.image.width, 3u);
  EXPECT_EQ(f.image.height, 1u);
  EXPECT_EQ(f.image.arraySize, 2u);
  EXPECT_EQ(f.bytes, bytesOf<float>({1, 2, 3, 4, 5, 6}));

  ArgValue v = parseArgSpec("image3d:RG,SIGNED_INT16[2,2,3]=fill(-7)");
  EXPECT_EQ(v.image.depth, 3u);
  EXPECT_EQ(v.image.slicePitch, 2u * 2 * 4);
  EXPECT_EQ(v.count, 2u * 2 * 3 * 2);
  EXPECT_EQ(v.type.name(), "short");
  EXPECT_EQ(parseArgSpec("image2d_array:BGRA,UNORM_INT8[2,2,5]").bytes.size(), 2u * 2 * 5 * 4);
  EXPECT_EQ(parseArgSpec("image1d_buffer:R,HALF_FLOAT[8]").type.name(), "half");
  // A packed format: one 16-bit value per pixel.
  ArgValue p = parseArgSpec("image1d:RGB,UNORM_SHORT_565[3]=values(0xf800,0x07e0,0x001f)");
  EXPECT_EQ(p.type.name(), "ushort");
  EXPECT_EQ(p.bytes, bytesOf<uint16_t>({0xf800, 0x07e0, 0x001f}));
}

TEST(ArgSpec, ImageErrors) {
  EXPECT_EQ(errorOf("image2d:RGBA,UNORM_INT8[4]"),
            "--arg 'image2d:RGBA,UNORM_INT8[4]': image2d takes [W,H], not [4]");
  EXPECT_EQ(errorOf("image3d:RGBA,UNORM_INT8[4,0,1]"),
            "--arg 'image3d:RGBA,UNORM_INT8[4,0,1]': image extent '0' is not a positive number");
  EXPECT_NE(errorOf("image2d:RGBZ,UNORM_INT8[1,1]").find("unknown channel order 'RGBZ'"),
            std::string::npos);
  EXPECT_NE(errorOf("image2d:RGBA,INT8[1,1]").find("unknown channel type 'INT8'"),
            std::string::npos);
  // A pair the OpenCL spec does not allow (BGRA takes 8-bit channels only).
  EXPECT_NE(errorOf("image2d:BGRA,FLOAT[1,1]").find("image format BGRA,FLOAT is not supported"),
            std::string::npos);
  EXPECT_NE(errorOf("image2d:RGBA[1,1]").find("expected ORDER,TYPE"), std::string::npos);
  EXPECT_NE(errorOf("image2d:RGBA,FLOAT").find("expected image2d:ORDER,TYPE[W,H]=INIT"),
            std::string::npos);
  EXPECT_NE(errorOf("image2d:R,UNSIGNED_INT8[2,1]=values(1,2,3)").find("values"),
            std::string::npos);
  EXPECT_NE(errorOf("image2d:R,FLOAT[65536,65536]").find("larger than"), std::string::npos);
  EXPECT_EQ(errorOf("event:1"), "--arg 'event:1': events are not supported as arguments yet");
  EXPECT_EQ(errorOf("pipe:int"),
            "--arg 'pipe:int': expected pipe:TYPE[N]=INIT, e.g. pipe:int[16]=values(1,2,3)");
}

TEST(ArgSpec, Samplers) {
  ArgValue s = parseArgSpec("sampler:NORMALIZED,MIRRORED_REPEAT,LINEAR");
  EXPECT_EQ(s.kind, Kind::Sampler);
  EXPECT_TRUE(s.sampler.normalizedCoords);
  EXPECT_EQ(s.sampler.addressing, 0x1134u);  // CL_ADDRESS_MIRRORED_REPEAT
  EXPECT_EQ(s.sampler.filter, 0x1141u);      // CL_FILTER_LINEAR
  ArgValue u = parseArgSpec("sampler:unnormalized,clamp_to_edge,nearest");
  EXPECT_FALSE(u.sampler.normalizedCoords);
  EXPECT_EQ(u.sampler.addressing, 0x1131u);
  EXPECT_EQ(u.sampler.filter, 0x1140u);
  EXPECT_EQ(parseArgSpec("sampler:NORMALIZED,NONE,NEAREST").sampler.addressing, 0x1130u);
  EXPECT_EQ(parseArgSpec("sampler:NORMALIZED,CLAMP,NEAREST").sampler.addressing, 0x1132u);
  EXPECT_EQ(errorOf("sampler:UNNORMALIZED,REPEAT,NEAREST"),
            "--arg 'sampler:UNNORMALIZED,REPEAT,NEAREST': sampler addressing mode REPEAT needs "
            "NORMALIZED coordinates");
  EXPECT_NE(errorOf("sampler:NORMALIZED,WRAP,NEAREST").find("addressing mode 'WRAP'"),
            std::string::npos);
  EXPECT_NE(errorOf("sampler:NORMALIZED,CLAMP,CUBIC").find("filter mode 'CUBIC'"),
            std::string::npos);
  EXPECT_NE(errorOf("sampler:nearest").find("expected sampler:NORMALIZED|UNNORMALIZED"),
            std::string::npos);
}

// The file an initializer reads: what `--json` and the other outputs must not replace.
TEST(ArgSpec, FileInitializerPath) {
  EXPECT_EQ(fileInitializerPath("buffer:int[4]=file(in.bin)"), "in.bin");
  EXPECT_EQ(fileInitializerPath("buffer:ro:float[2] = file( dir/x y.bin )"), "dir/x y.bin");
  EXPECT_EQ(fileInitializerPath("image2d:R,FLOAT[2,2]=file(px.bin)"), "px.bin");
  EXPECT_EQ(fileInitializerPath("pipe:int[4]=file(p.bin)"), "p.bin");
  EXPECT_EQ(fileInitializerPath("buffer:int[4]=range(1)"), "");
  EXPECT_EQ(fileInitializerPath("buffer:int[4]"), "");
  EXPECT_EQ(fileInitializerPath("int:5"), "");
  EXPECT_EQ(fileInitializerPath("buffer:int[4]=file(unclosed"), "");
}

}  // namespace
}  // namespace spvsim::tools
