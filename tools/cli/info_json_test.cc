#include "tools/cli/info_json.h"

#include <gtest/gtest.h>

#include <fstream>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "tools/cli/json_value.h"
#include "tools/cli/kernel_input.h"
#include "tools/cli/options.h"

namespace spvsim::tools {
namespace {

// Every fact below follows from the OpenCL C declarations (attributes, address spaces,
// qualifiers), not from spvsim's output.
constexpr const char* kSource = R"(
__attribute__((reqd_work_group_size(8, 1, 1))) __attribute__((intel_reqd_sub_group_size(16)))
kernel void k(global uint* restrict out, constant float* c, local int* l, read_only image2d_t img,
              sampler_t s, float4 v, global const volatile short* p) {
  out[get_global_id(0)] = (uint)(c[0] + v.x) + l[0] + p[0] + read_imagei(img, s, (int2)(0, 0)).x;
}
__attribute__((work_group_size_hint(4, 2, 1))) __attribute__((vec_type_hint(float4)))
kernel void other(global float* x) { x[0] = 1; }
)";

struct Info {
  compiler::CompileResult build;
  spirv::Module module;
};

Info compile() {
  const std::string path = ::testing::TempDir() + "/info_json.cl";
  std::ofstream(path) << kSource;
  compiler::CompileResult build = readKernel(path, "-cl-std=CL2.0", false);
  spirv::Module module = spirv::loadModule(build.words);
  return {std::move(build), std::move(module)};
}

const JsonValue& at(const JsonValue& v, std::string_view key) {
  const JsonValue* m = v.find(key);
  if (!m) throw std::runtime_error("no member " + std::string(key));
  return *m;
}

std::vector<std::string> texts(const JsonValue& array) {
  std::vector<std::string> out;
  for (const JsonValue& v : array.items) out.push_back(v.text);
  return out;
}

std::vector<std::string> sizes(const JsonValue& array) {
  if (array.type == JsonValue::Type::Null) return {"null"};
  return texts(array);
}

TEST(InfoJson, KernelsArgumentsAndAttributes) {
  const Info info = compile();
  const JsonValue doc = parseJson(formatModuleInfoJson(info.module, "", info.build), "info");
  EXPECT_EQ(at(doc, "spirv_version").text,
            fmt::format("{}.{}", info.module.majorVersion(), info.module.minorVersion()));
  const std::vector<std::string> caps = texts(at(doc, "capabilities"));
  EXPECT_NE(std::find(caps.begin(), caps.end(), "Kernel"), caps.end());
  const JsonValue& kernels = at(doc, "kernels");
  ASSERT_EQ(kernels.items.size(), 2u);

  const JsonValue& k = kernels.items[0];
  EXPECT_EQ(at(k, "name").text, "k");
  EXPECT_EQ(sizes(at(k, "required_work_group_size")), (std::vector<std::string>{"8", "1", "1"}));
  EXPECT_EQ(at(k, "work_group_size_hint").type, JsonValue::Type::Null);
  EXPECT_EQ(at(k, "required_sub_group_size").text, "16");
  const JsonValue& args = at(k, "args");
  ASSERT_EQ(args.items.size(), 7u);
  struct Expected {
    const char *name, *type, *space, *access, *kind;
    std::vector<std::string> qualifiers;
    const char* size;
  };
  const Expected expected[] = {
      {"out", "uint*", "global", "none", "global-pointer", {"restrict"}, "8"},
      {"c", "float*", "constant", "none", "constant-pointer", {"const"}, "8"},
      {"l", "int*", "local", "none", "local-pointer", {}, "8"},
      {"img", "image2d_t", "global", "read_only", "image", {}, "8"},
      {"s", "sampler_t", "private", "none", "sampler", {}, "8"},
      {"v", "float4", "private", "none", "value", {}, "16"},
      {"p", "short*", "global", "none", "global-pointer", {"const", "volatile"}, "8"},
  };
  for (size_t i = 0; i < 7; ++i) {
    SCOPED_TRACE(expected[i].name);
    const JsonValue& a = args.items[i];
    EXPECT_EQ(at(a, "index").text, std::to_string(i));
    EXPECT_EQ(at(a, "name").text, expected[i].name);
    EXPECT_EQ(at(a, "type").text, expected[i].type);
    EXPECT_EQ(at(a, "address_space").text, expected[i].space);
    EXPECT_EQ(at(a, "access").text, expected[i].access);
    EXPECT_EQ(at(a, "kind").text, expected[i].kind);
    EXPECT_EQ(texts(at(a, "qualifiers")), expected[i].qualifiers);
    EXPECT_EQ(at(a, "size").text, expected[i].size);
  }
  // A buffer's elements: 4-byte integers for uint*, 2-byte for short*, 4-byte float for c.
  EXPECT_EQ(at(args.items[0], "pointee_size").text, "4");
  EXPECT_EQ(at(args.items[0], "pointee_floating").text, "false");
  EXPECT_EQ(at(args.items[1], "pointee_floating").text, "true");
  EXPECT_EQ(at(args.items[1], "read_only").text, "true");  // constant memory
  EXPECT_EQ(at(args.items[6], "pointee_size").text, "2");

  const JsonValue& other = kernels.items[1];
  EXPECT_EQ(at(other, "name").text, "other");
  EXPECT_EQ(at(other, "required_work_group_size").type, JsonValue::Type::Null);
  EXPECT_EQ(sizes(at(other, "work_group_size_hint")), (std::vector<std::string>{"4", "2", "1"}));
  EXPECT_EQ(at(other, "vec_type_hint").text, "float4");
  EXPECT_EQ(at(other, "required_sub_group_size").type, JsonValue::Type::Null);

  // Compiled without the cache: the three commands of the driver.
  const JsonValue& build = at(doc, "build");
  EXPECT_EQ(at(build, "from_cache").text, "false");
  const std::vector<std::string> commands = texts(at(build, "commands"));
  ASSERT_EQ(commands.size(), 3u);
  EXPECT_EQ(commands[0].rfind("clang-15 ", 0), 0u);
  EXPECT_EQ(commands[2].rfind("llvm-spirv-15 ", 0), 0u);
}

TEST(InfoJson, OneKernelAndUnknownKernel) {
  const Info info = compile();
  const JsonValue doc = parseJson(formatModuleInfoJson(info.module, "other", info.build), "info");
  ASSERT_EQ(at(doc, "kernels").items.size(), 1u);
  EXPECT_EQ(at(at(doc, "kernels").items[0], "name").text, "other");
  EXPECT_THROW(formatModuleInfoJson(info.module, "nope", info.build), Error);
}

// --json is a flag of info and takes a FILE in the launching commands.
TEST(InfoJson, Option) {
  EXPECT_TRUE(parseCommandLine({"info", "k.cl", "--json"}).options.infoJson);
  const RunOptions run =
      parseCommandLine({"run", "k.cl", "--global", "4", "--json", "out.json"}).options;
  EXPECT_EQ(run.jsonPath, "out.json");
  EXPECT_FALSE(run.infoJson);
  EXPECT_THROW(parseCommandLine({"dis", "k.cl", "--json"}), Error);
}

}  // namespace
}  // namespace spvsim::tools
