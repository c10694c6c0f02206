#include "tools/cli/bundle.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "spirv/error.h"
#include "src/formats/testing/bundle_folder.h"
#include "tools/cli/test_util.h"

namespace spvsim::tools {
namespace {

namespace fs = std::filesystem;
using testing::bytesOf;
using Kind = spirv::ParamKind;

spirv::ParamSignature param(uint32_t index, std::string type, Kind kind, uint64_t size = 8) {
  spirv::ParamSignature p;
  p.index = index;
  p.name = "p" + std::to_string(index);
  p.typeName = std::move(type);
  p.kind = kind;
  p.size = size;
  p.addressSpace = kind == Kind::Value          ? spirv::AddressSpace::Private
                   : kind == Kind::LocalPointer ? spirv::AddressSpace::Local
                                                : spirv::AddressSpace::Global;
  return p;
}

using BundleTest = formats::testing::BundleFolderTest;

TEST_F(BundleTest, ReadsLaunchAndArguments) {
  manifest(std::string(kBuffer) +
           "arg 0 value size=4 type=int bytes=05000000\n"
           "arg 1 buffer buffer=0 offset=0 size=32 type=const%20int* access=r\n"
           "arg 2 local size=64\narg 3 null\n"
           "arg 4 sampler normalized=1 addressing=0x1132 filter=0x1141\n"
           "warning SVM is not captured\nwarning twice\n");
  EXPECT_TRUE(isBundlePath(dir_.string()));
  EXPECT_TRUE(isBundlePath((dir_ / "launch.txt").string()));
  EXPECT_FALSE(isBundlePath((dir_ / "module.spv").string()));
  const Bundle b = readBundle((dir_ / "launch.txt").string());
  EXPECT_EQ(b.kernel, "k");
  EXPECT_EQ(b.buildOptions, "-cl-std=CL2.0 -O0");
  EXPECT_EQ(b.dims, 2u);
  EXPECT_EQ(b.offset, (std::array<uint64_t, 3>{1, 2, 0}));
  EXPECT_EQ(b.global, (std::array<uint64_t, 3>{8, 4, 1}));
  EXPECT_EQ(b.local, (std::array<uint64_t, 3>{4, 2, 1}));
  EXPECT_EQ(b.subGroupSize, 8u);
  EXPECT_EQ(b.warnings, (std::vector<std::string>{"SVM is not captured", "twice"}));
  ASSERT_EQ(b.args.size(), 5u);
  EXPECT_EQ(b.args[1].type, "const int*");
  EXPECT_FALSE(b.args[1].writable);
  EXPECT_EQ(b.args[4].sampler.addressing, 0x1132u);

  const std::vector<spirv::ParamSignature> params = {
      param(0, "int", Kind::Value, 4), param(1, "const int*", Kind::GlobalPointer),
      param(2, "float*", Kind::LocalPointer), param(3, "int*", Kind::GlobalPointer),
      param(4, "sampler_t", Kind::Sampler)};
  ArgMemory memory;
  const std::vector<ArgValue> args = bundleArguments(b, params, memory);
  EXPECT_EQ(args[0].bytes, bytesOf<int32_t>({5}));
  EXPECT_EQ(args[0].type.name(), "int");
  EXPECT_EQ(args[1].type.name(), "int");
  EXPECT_EQ(args[1].count, 8u);
  EXPECT_EQ(args[1].bytes, bytesOf<int32_t>({0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_FALSE(args[1].storageArg);  // one argument on the buffer: no sharing needed
  EXPECT_EQ(args[2].localBytes, 64u);
  EXPECT_EQ(args[3].kind, ArgValue::Kind::Null);
  EXPECT_TRUE(args[4].sampler.normalizedCoords);
  EXPECT_EQ(memory.used, 32u);
  const std::vector<ExpectedArg> expect = bundleExpectations(b, args);
  ASSERT_EQ(expect.size(), 1u);
  EXPECT_EQ(expect[0].index, 1u);
  EXPECT_EQ(expect[0].value.bytes, bytesOf<int32_t>({10, 11, 12, 13, 14, 15, 16, 17}));
}

// Two arguments on one allocation share it: the binding of each is its window, and
// after a launch each argument's bytes show the shared storage.
TEST_F(BundleTest, AliasingArgumentsShareTheAllocation) {
  manifest(std::string(kBuffer) +
           "arg 0 buffer buffer=0 offset=16 size=16 type=int* access=rw\n"
           "arg 1 buffer buffer=0 offset=0 size=32 type=int* access=rw\n");
  const Bundle b = readBundle(dir_.string());
  ArgMemory memory;
  std::vector<ArgValue> args = bundleArguments(
      b, {param(0, "int*", Kind::GlobalPointer), param(1, "int*", Kind::GlobalPointer)}, memory);
  EXPECT_EQ(args[0].bytes, bytesOf<int32_t>({4, 5, 6, 7}));
  ASSERT_TRUE(args[0].storageArg && args[1].storageArg);
  EXPECT_EQ(*args[0].storageArg, 0u);
  EXPECT_EQ(*args[1].storageArg, 0u);
  const std::vector<ArgBinding> bound = bindings(args);
  EXPECT_EQ(bound[0].data, bound[1].data + 16);
  EXPECT_EQ(bound[0].size, 16u);
  bound[1].data[16] = 42;  // the kernel writes element 4 through argument 1
  syncSharedStorage(args);
  EXPECT_EQ(args[0].bytes[0], 42);
  EXPECT_EQ(args[1].bytes[16], 42);
  const std::vector<ExpectedArg> expect = bundleExpectations(b, args);
  ASSERT_EQ(expect.size(), 2u);
  EXPECT_EQ(expect[0].value.bytes, bytesOf<int32_t>({14, 15, 16, 17}));
  EXPECT_TRUE(expect[0].value.storage.empty());
}

TEST_F(BundleTest, ArgumentsThatDoNotFitTheKernel) {
  manifest("arg 0 not-captured pipes\n");
  const Bundle b = readBundle(dir_.string());
  ArgMemory memory;
  try {
    bundleArguments(b, {param(0, "pipe int", Kind::Pipe)}, memory);
    ADD_FAILURE() << "an uncaptured argument was replayed";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find(
                  "launch.txt:11: argument 0 (global pipe int p0) was not captured: pipes"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(bundleArguments(b, {}, memory), Error);  // the kernel takes no arguments
  // Buffers count against the memory limit before they are read.
  manifest(std::string(kBuffer) + "arg 0 buffer buffer=0 offset=0 size=32 type=int*\n");
  ArgMemory small{16};
  try {
    bundleArguments(readBundle(dir_.string()), {param(0, "int*", Kind::GlobalPointer)}, small);
    ADD_FAILURE() << "the memory limit was ignored";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::OutOfMemory);
  }
}

// Images: the shape of the command line's image2d:... form, pixels packed.
TEST_F(BundleTest, ImagesWithTheirPixels) {
  write("i.before", bytesOf<uint8_t>({1, 2, 3, 4, 5, 6, 7, 8}));
  write("i.after", bytesOf<uint8_t>({9, 9, 9, 9, 9, 9, 9, 9}));
  manifest("arg 0 image shape=image2d:RGBA,UNORM_INT8[2,1] before=i.before after=i.after\n");
  const Bundle b = readBundle(dir_.string());
  ArgMemory memory;
  const std::vector<ArgValue> args =
      bundleArguments(b, {param(0, "image2d_t", Kind::Image)}, memory);
  EXPECT_EQ(args[0].kind, ArgValue::Kind::Image);
  EXPECT_EQ(args[0].image.width, 2u);
  EXPECT_EQ(args[0].bytes, bytesOf<uint8_t>({1, 2, 3, 4, 5, 6, 7, 8}));
  const std::vector<ExpectedArg> expect = bundleExpectations(b, args);
  ASSERT_EQ(expect.size(), 1u);
  EXPECT_EQ(expect[0].value.bytes, std::vector<uint8_t>(8, 9));
  EXPECT_NE(error("arg 0 image shape=image2d:RGBA,UNORM_INT8[4,1] before=i.before after=i.after\n")
                .find("holds 8 bytes but the manifest says 16"),
            std::string::npos);
  EXPECT_NE(error("arg 0 image shape=texture:RGBA before=i.before after=i.after\n")
                .find("is not an image shape"),
            std::string::npos);
  EXPECT_NE(error("arg 0 image shape=image2d:RGBA,NOPE[2,1] before=i.before after=i.after\n")
                .find("launch.txt:11: shape=image2d:RGBA,NOPE[2,1]: "),
            std::string::npos);
}

// Element types come from the parameter's type; what names none is bytes.
TEST_F(BundleTest, ElementTypesFromTheParameterType) {
  manifest(std::string(kBuffer) +
           "arg 0 buffer buffer=0 offset=0 size=32 type=float4* access=rw\n"
           "arg 1 buffer buffer=0 offset=0 size=12 type=struct%20S* access=rw\n"
           "arg 2 value size=8 type=struct%20P bytes=0100000002000000\n");
  ArgMemory memory;
  const std::vector<ArgValue> args = bundleArguments(
      readBundle(dir_.string()),
      {param(0, "float4*", Kind::GlobalPointer), param(1, "struct S*", Kind::GlobalPointer),
       param(2, "struct P", Kind::ByValStruct, 8)},
      memory);
  EXPECT_EQ(args[0].type.name(), "float4");
  EXPECT_EQ(args[0].count, 2u);
  EXPECT_EQ(args[1].type.name(), "uchar");
  EXPECT_EQ(args[1].count, 12u);
  EXPECT_TRUE(args[2].isStruct());
  EXPECT_EQ(args[2].structName, "struct P");
}

}  // namespace
}  // namespace spvsim::tools
