// The compile driver with the real clang-15, opt-15 and llvm-spirv-15: each test is a
// kernel family that llvm-spirv-15 used to refuse or mistranslate at -O1..-O3 or -g,
// checked for the SPIR-V the specifications call for (OpenCL C 1.2's device-wide legacy
// atomics, cluster sizes and broadcast ids that stay constant, ...).
#include "src/compiler/compile_driver.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "spirv/error.h"
#include "spirv/legacy_atomics.h"
#include "spirv/loader.h"
#include "src/compiler/build_options.h"
#include "src/compiler/opencl_c_support.h"
#include "src/compiler/process.h"

namespace spvsim::compiler {
namespace {

using Strings = std::vector<std::string>;
using spv::Op;

TEST(SplitBuildOptions, LikeAShell) {
  EXPECT_EQ(splitBuildOptions(""), Strings{});
  EXPECT_EQ(splitBuildOptions("  -DN=4   -O0 "), (Strings{"-DN=4", "-O0"}));
  EXPECT_EQ(splitBuildOptions("-DMSG=\"a b\" -I'my dir'"), (Strings{"-DMSG=a b", "-Imy dir"}));
  EXPECT_EQ(splitBuildOptions("-DX=a\\ b \"\""), (Strings{"-DX=a b", ""}));
  EXPECT_EQ(splitBuildOptions("-DQ=\"\\\"\""), (Strings{"-DQ=\""}));
  EXPECT_THROW(splitBuildOptions("-DMSG=\"open"), Error);
}

TEST(OptimizationLevel, LastOneWinsAndClOptDisableIsO0) {
  EXPECT_EQ(optimizationLevel({}), "-O2");
  EXPECT_EQ(optimizationLevel({"-O3", "-DN=1", "-O1"}), "-O1");
  EXPECT_EQ(optimizationLevel({"-O"}), "-O1");
  EXPECT_EQ(optimizationLevel({"-O3", "-cl-opt-disable"}), "-O0");
  EXPECT_EQ(withoutOptimizationLevel({"-O3", "-DN=1", "-cl-opt-disable"}), Strings{"-DN=1"});
  EXPECT_EQ(lowerLevels("-O3"), (Strings{"-O1", "-O0"}));
  EXPECT_EQ(lowerLevels("-O1"), Strings{"-O0"});
  EXPECT_EQ(lowerLevels("-O0"), Strings{});
}

TEST(OpenclCStandard, FromTheOptionsOrTheDefault) {
  EXPECT_EQ(openclCStandard({"-DX", "-cl-std=CL2.0"}, "CL1.2"), "CL2.0");
  EXPECT_EQ(openclCStandard({"-DX"}, "CL1.2"), "CL1.2");
}

class DriverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* tool : {"clang-15", "opt-15", "llvm-spirv-15"})
      if (!findOnPath(tool)) GTEST_SKIP() << tool << " is not installed";
  }

  // Compiles without the cache (each test checks a real compilation).
  CompileResult compile(const std::string& source, const std::string& options = "") {
    return compileOpenCL({.source = source, .options = options, .useCache = false});
  }

  // Every instruction of the module's functions with `op`.
  static std::vector<spirv::Instruction> find(const spirv::Module& m, Op op) {
    std::vector<spirv::Instruction> out;
    for (const spirv::Function& f : m.functions)
      for (const spirv::Block& b : f.blocks)
        for (const spirv::Instruction& i : b.instructions)
          if (i.opcode == op) out.push_back(i);
    return out;
  }

  static uint64_t constant(const spirv::Module& m, spirv::Id id) {
    const spirv::Constant& c = m.constants.at(id);
    uint64_t v = 0;
    std::memcpy(&v, c.bytes.data(), std::min<size_t>(c.bytes.size(), sizeof v));
    return v;
  }

  static std::string write(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::path(::testing::TempDir()) / name;
    std::ofstream(path) << text;
    return path.string();
  }
};

const std::vector<std::string> kLevels = {"-O0", "-O1", "-O2", "-O3", "-O2 -g", "-O0 -g"};

TEST_F(DriverTest, RecordsTheCommandsAndMarksTheModule) {
  const CompileResult r = compile("kernel void k(global int* a) { a[0] = N; }", "-DN=3");
  ASSERT_EQ(r.commands.size(), 3u);
  EXPECT_EQ(r.commands[0].rfind("clang-15 ", 0), 0u) << r.commands[0];
  EXPECT_NE(r.commands[0].find("-DN=3"), std::string::npos);
  EXPECT_EQ(r.commands[1].rfind("opt-15 -expand-reductions ", 0), 0u);
  EXPECT_EQ(r.commands[2].rfind("llvm-spirv-15 ", 0), 0u);
  EXPECT_FALSE(r.fromCache);
  const spirv::Module m = spirv::loadModule(r.words);
  EXPECT_TRUE(m.repairs.empty());
  EXPECT_EQ(std::count(m.sourceExtensions.begin(), m.sourceExtensions.end(),
                       std::string(spirv::kLegacyAtomicsMarker)),
            1);
}

TEST_F(DriverTest, SourceErrorsNameTheFileOrAreTheCompilersMessages) {
  const std::string path = write("bad.cl", "kernel void k(global int* a) { a[0] = oops; }\n");
  try {
    compileOpenCLFile(path, "", false);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Compile);
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("compiling '" + path + "' failed (clang-15 exited with status 1):\n", 0),
              0u)
        << what;
    EXPECT_NE(what.find("use of undeclared identifier 'oops'"), std::string::npos) << what;
  }
  try {
    compile("kernel void k(global int* a) { a[0] = oops; }");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("<stdin>:1:", 0), 0u) << e.what();
  }
  EXPECT_THROW(compileOpenCLFile("/no/such/k.cl", "", false), Error);
}

// A relative path that starts with '-' is still the input: clang must not read it as an
// option ("-DN.cl" would be a macro and leave clang without input; "-fplugin=x.cl" would
// load the file into clang).
TEST_F(DriverTest, APathThatLooksLikeAnOptionIsTheInput) {
  write("-DN.cl", "kernel void k(global int* a) { a[0] = 7; }\n");
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(::testing::TempDir());
  CompileResult r;
  EXPECT_NO_THROW(r = compileOpenCLFile("-DN.cl", "", false));
  std::filesystem::current_path(before);
  ASSERT_EQ(r.commands.size(), 3u);
  EXPECT_NE(r.commands[0].find(" ./-DN.cl "), std::string::npos) << r.commands[0];
}

// x / k next to x % k: DivRemPairs freezes x (llvm-spirv-15: "Can't translate freeze").
TEST_F(DriverTest, DivisionNextToRemainderAtEveryLevel) {
  for (const std::string& level : kLevels) {
    const CompileResult r = compile(R"(
      kernel void k(global int4* a, global int4* q, global int4* r, int d) {
        int i = get_global_id(0);
        q[i] = a[i] / d;  r[i] = a[i] % d;
        int x = a[i].x;
        q[i].x += x / 7; r[i].x += x % 7;
      })",
                                    level);
    EXPECT_EQ(r.log, "") << level;
    const spirv::Module m = spirv::loadModule(r.words);
    EXPECT_FALSE(find(m, Op::OpSDiv).empty()) << level;
  }
}

// for (i = 0; i < n; ++i) s += i: no closed form in i33 (the validator refuses it).
TEST_F(DriverTest, LoopExitValuesStayInStandardWidths) {
  const CompileResult r = compile(
      "kernel void k(global int* o, int n) { int s = 0; for (int i = 0; i < n; ++i) "
      "s += i; o[0] = s; }");
  for (const auto& [id, t] : spirv::loadModule(r.words).types)
    if (t.kind == spirv::TypeKind::Int) EXPECT_TRUE(t.width % 8 == 0) << t.width;
}

// switch (x & 7): InstCombine narrows the condition to i3; llvm-spirv-15 crashes on it.
TEST_F(DriverTest, NarrowedSwitchesAreWidened) {
  for (const std::string& level : {"-O2", "-O3"}) {
    const CompileResult r = compile(R"(
      kernel void k(global int* out, global const int* in) {
        int i = get_global_id(0), v;
        switch (in[i] & 7) { case 0: v = 5; break; case 1: v = 9; break; case 2: v = 13; break;
                             case 5: v = 77; break; default: v = 3; }
        out[i] = v;
      })",
                                    level);
    EXPECT_EQ(r.log, "") << level;
    const spirv::Module m = spirv::loadModule(r.words);
    EXPECT_EQ(find(m, Op::OpSwitch).size(), 1u) << level;
    for (const auto& [id, t] : m.types)
      if (t.kind == spirv::TypeKind::Int) EXPECT_TRUE(t.width % 8 == 0) << level << t.width;
  }
}

// OpenCL 1.2: atomic_inc and friends are atomic across the device (Scope Device = 1),
// relaxed (semantics 0); llvm-spirv-15 would give them Workgroup scope.
TEST_F(DriverTest, LegacyAtomicsAreDeviceWide) {
  for (const std::string& level : {"-cl-std=CL1.2 -O0", "-cl-std=CL1.2 -O2", "-O2 -g"}) {
    const CompileResult r = compile(R"(
      #pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
      kernel void k(global uint* bins, global const uint* in, global long* total,
                    local int* l, global int* m) {
        uint i = get_global_id(0);
        atomic_inc(&bins[in[i] % 16]);
        atom_add(total, (long)in[i]);
        atomic_add(l, 1);
        atomic_min(m, (int)in[i]);
        atomic_cmpxchg(&bins[0], 5u, 6u);
      })",
                                    level);
    const spirv::Module m = spirv::loadModule(r.words);
    size_t atomics = 0;
    for (Op op :
         {Op::OpAtomicIAdd, Op::OpAtomicIIncrement, Op::OpAtomicSMin, Op::OpAtomicCompareExchange})
      for (const spirv::Instruction& i : find(m, op)) {
        ++atomics;
        EXPECT_EQ(constant(m, i.operands[1]), 1u) << level << " scope of op " << int(op);
        EXPECT_EQ(constant(m, i.operands[2]), 0u) << level << " semantics";
      }
    EXPECT_EQ(atomics, 5u) << level;
  }
}

// Sub-group calls in the arms of a branch stay in the arms: one clustered reduce per
// case with its constant cluster size, one broadcast per arm with its constant id.
TEST_F(DriverTest, SubGroupCallsAreNotMergedAcrossBranches) {
  for (const std::string& level : {"-O1", "-O2", "-O3"}) {
    const CompileResult r = compile(R"(
      kernel void k(global int* out, int which) {
        int v = get_sub_group_local_id(), r;
        switch (which) {
          case 0: r = sub_group_clustered_reduce_add(v, 2); break;
          case 1: r = sub_group_clustered_reduce_add(v, 4); break;
          default: r = sub_group_clustered_reduce_add(v, 8); break;
        }
        if (which > 5) r += sub_group_broadcast(v, 1); else r += sub_group_broadcast(v, 2);
        out[get_global_id(0)] = r;
      })",
                                    level);
    const spirv::Module m = spirv::loadModule(r.words);
    std::vector<uint64_t> clusters, ids;
    for (const spirv::Instruction& i : find(m, Op::OpGroupNonUniformIAdd)) {
      ASSERT_EQ(i.operands.size(), 4u);
      ASSERT_TRUE(m.constants.count(i.operands[3])) << level << ": cluster size not constant";
      clusters.push_back(constant(m, i.operands[3]));
    }
    for (const spirv::Instruction& i : find(m, Op::OpGroupBroadcast)) {
      ASSERT_TRUE(m.constants.count(i.operands[2])) << level << ": broadcast id not constant";
      ids.push_back(constant(m, i.operands[2]));
    }
    std::sort(clusters.begin(), clusters.end());
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(clusters, (std::vector<uint64_t>{2, 4, 8})) << level;
    EXPECT_EQ(ids, (std::vector<uint64_t>{1, 2})) << level;
  }
}

// Exactly the device's extensions and features are predefined (opencl_c_support.h).
TEST_F(DriverTest, PredefinesExactlyTheDevicesExtensionsAndFeatures) {
  const std::string probe = R"(
    #if defined(cl_khr_integer_dot_product) || defined(cl_amd_media_ops) \
        || defined(__opencl_c_atomic_scope_all_devices)
    #error an unsupported feature is predefined
    #endif
    #if !defined(cl_khr_fp16) || !defined(cl_khr_fp64) || !defined(cl_intel_subgroups) \
        || !defined(cl_intel_subgroups_char) || !defined(cl_intel_subgroups_short) \
        || !defined(cl_intel_subgroups_long) || !defined(cl_khr_subgroup_ballot) \
        || !defined(cl_khr_int64_base_atomics) || !defined(cl_khr_3d_image_writes)
    #error a supported extension is missing
    #endif
    #if __OPENCL_C_VERSION__ >= 300 && (!defined(__opencl_c_subgroups) \
        || !defined(__opencl_c_generic_address_space) || !defined(__opencl_c_fp64) \
        || !defined(__opencl_c_images) || !defined(__opencl_c_read_write_images) \
        || !defined(__opencl_c_pipes) || !defined(__opencl_c_device_enqueue) \
        || !defined(__opencl_c_3d_image_writes))
    #error a supported feature is missing
    #endif
    #ifndef __IMAGE_SUPPORT__
    #error images are supported
    #endif
    kernel void k(global uint* o) { o[0] = sub_group_ballot_bit_count(sub_group_ballot(1)); }
  )";
  for (const std::string& std : {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"})
    EXPECT_NO_THROW(compile(probe, std)) << std;
}

// cl_intel_subgroups_char/short/long functions reach the SPV_INTEL_subgroups opcodes (or
// the khr group instructions the Intel specifications define them as).
TEST_F(DriverTest, IntelCharShortLongSubGroupFunctions) {
  const CompileResult r = compile(R"(
    kernel void k(global uchar* a, global ulong* b, global short* s, global char* c) {
      uint i = get_global_id(0);
      c[i] = intel_sub_group_shuffle((char)i, 3u);
      uchar4 q = intel_sub_group_shuffle_down((uchar4)(i), (uchar4)(i + 1), 1u);
      uchar x = intel_sub_group_block_read_uc(a);
      intel_sub_group_block_write_uc4(a + 64, (uchar4)(x, q.x, q.y, 0));
      ulong2 w = intel_sub_group_block_read_ul2(b);
      intel_sub_group_block_write_ul(b + 64, w.x + w.y);
      s[i] = intel_sub_group_broadcast(s[i], 2u) + intel_sub_group_reduce_add(s[i]);
    })");
  const spirv::Module m = spirv::loadModule(r.words);
  EXPECT_EQ(find(m, Op::OpFunctionCall).size(), 1u);  // only clang's kernel wrapper call
  EXPECT_EQ(find(m, Op::OpSubgroupShuffleINTEL).size(), 1u);
  EXPECT_EQ(find(m, Op::OpSubgroupShuffleDownINTEL).size(), 1u);
  EXPECT_EQ(find(m, Op::OpSubgroupBlockReadINTEL).size(), 2u);
  EXPECT_EQ(find(m, Op::OpSubgroupBlockWriteINTEL).size(), 2u);
  EXPECT_EQ(find(m, Op::OpGroupBroadcast).size(), 1u);
  EXPECT_EQ(find(m, Op::OpGroupIAdd).size(), 1u);
}

// The Intel block functions of every form the extensions define, which clang-15 lacks
// (image2d_t forms of _uc and _ul, write_only _ui writes, _us16; before OpenCL C 2.0 all
// image forms), reach OpSubgroup(Image)Block{Read,Write}INTEL at -O0 and -O2: _us16 as
// two _us8 operations. Their values: runtime/tests/programs/intel_block_io_test.py.
TEST_F(DriverTest, IntelBlockFunctionsOfEveryForm) {
  const std::string source = R"(
    kernel void k(read_only image2d_t r, write_only image2d_t w, int2 c, global uchar* uc,
                  global ushort* us, global ulong* ul) {
      uchar16 a = intel_sub_group_block_read_uc16(r, c);
      intel_sub_group_block_write_uc16(w, c, a);
      ulong8 b = intel_sub_group_block_read_ul8(r, c);
      intel_sub_group_block_write_ul8(w, c, b);
      uint4 d = intel_sub_group_block_read_ui4(r, c) + intel_sub_group_block_read4(r, c);
      intel_sub_group_block_write_ui4(w, c, d);
      ushort16 e = intel_sub_group_block_read_us16(r, c) + intel_sub_group_block_read_us16(us);
      intel_sub_group_block_write_us16(w, c, e);
      intel_sub_group_block_write_us16(us + 512, e);
      uc[get_global_id(0)] = intel_sub_group_block_read_uc(uc + 64);
    }
    #if __OPENCL_C_VERSION__ >= 200
    kernel void rw(read_write image2d_t img, int2 c) {
      intel_sub_group_block_write_uc2(img, c, intel_sub_group_block_read_uc2(img, c));
      intel_sub_group_block_write_ul(img, c, intel_sub_group_block_read_ul(img, c));
      intel_sub_group_block_write_us16(img, c, intel_sub_group_block_read_us16(img, c));
    }
    #endif
  )";
  for (const std::string& std : {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"})
    for (const std::string& level : {"-O0", "-O2"}) {
      const CompileResult r = compile(source, std + " " + level);
      EXPECT_EQ(r.log, "") << std << " " << level;
      const spirv::Module m = spirv::loadModule(r.words);
      const size_t rw = std == "-cl-std=CL1.2" ? 0 : 4;  // uc2, ul, two us8
      EXPECT_EQ(find(m, Op::OpSubgroupImageBlockReadINTEL).size(), 6 + rw) << std << " " << level;
      EXPECT_EQ(find(m, Op::OpSubgroupImageBlockWriteINTEL).size(), 5 + rw) << std << " " << level;
      EXPECT_EQ(find(m, Op::OpSubgroupBlockReadINTEL).size(), 3u) << std << " " << level;
      EXPECT_EQ(find(m, Op::OpSubgroupBlockWriteINTEL).size(), 2u) << std << " " << level;
    }
}

// __OPENCL_VERSION__ is the device's OpenCL version (3.0), whatever -cl-std says;
// __OPENCL_C_VERSION__ follows -cl-std, or the request's default (the ICD's is CL1.2);
// -D__OPENCL_VERSION__ in the options wins, without a warning.
TEST_F(DriverTest, OpenclVersionMacros) {
  auto probe = [](int c) {
    return fmt::format(
        "#if __OPENCL_VERSION__ != 300\n#error __OPENCL_VERSION__ is not 300\n#endif\n"
        "#if __OPENCL_C_VERSION__ != {0}\n#error __OPENCL_C_VERSION__ is not {0}\n#endif\n"
        "kernel void k(global int* o) {{ o[0] = __OPENCL_VERSION__; }}\n",
        c);
  };
  for (const auto& [options, c] : std::vector<std::pair<std::string, int>>{
           {"", 300}, {"-cl-std=CL1.2", 120}, {"-cl-std=CL2.0", 200}, {"-cl-std=CL3.0", 300}}) {
    const CompileResult r = compile(probe(c), options);
    EXPECT_EQ(r.log, "") << options;
  }
  const CompileResult icd = compileOpenCL(
      {.source = probe(120), .options = "-O0", .defaultStd = "CL1.2", .useCache = false});
  EXPECT_EQ(icd.log, "");
  const CompileResult own = compile(
      "#if __OPENCL_VERSION__ != 210\n#error not the option's\n#endif\nkernel void k() {}\n",
      "-D__OPENCL_VERSION__=210");
  EXPECT_EQ(own.log, "");
}

// Every extension the device reports that kernels see as a macro takes
// `#pragma OPENCL EXTENSION NAME : enable|disable` without a warning (clang-15 warns
// for those its own list lacks, e.g. cl_khr_expect_assume in every CLBlast build);
// cl_ext_float_atomics, whose functions use OpenCL C 2.0 atomics, has no macro before
// 2.0. A name the device does not support still gets clang's warning.
TEST_F(DriverTest, ExtensionPragmasOfTheDevicesExtensionsGiveNoWarning) {
  for (int version : {120, 200, 300}) {
    std::string source;
    for (const std::string& name : supportedExtensions()) {
      const bool defined = !(name == "cl_ext_float_atomics" && version < 200);
      source += fmt::format(
          "#if {1}defined({0})\n#error {0} is {2}defined\n#endif\n#ifdef {0}\n"
          "#pragma OPENCL EXTENSION {0} : enable\n#pragma OPENCL EXTENSION {0} : disable\n"
          "#pragma OPENCL EXTENSION {0} : enable\n#endif\n",
          name, defined ? "!" : "", defined ? "not " : "");
    }
    source += "kernel void k(global int* o) { o[0] = 1; }\n";
    const std::string std = fmt::format("-cl-std=CL{}.{}", version / 100, version / 10 % 10);
    for (const std::string& level : {"-O0", "-O2"})
      EXPECT_EQ(compile(source, std + " " + level).log, "") << std << " " << level;
    // Before OpenCL C 2.0 clang-15 calls cl_khr_subgroups unsupported; the driver drops
    // that warning alone and recounts the others.
    const std::string mixed =
        compile(
            "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n#warning kept\n"
            "kernel void k(global uint* o) { o[0] = get_sub_group_size(); }\n",
            std)
            .log;
    EXPECT_EQ(mixed.find("cl_khr_subgroups"), std::string::npos) << mixed;
    EXPECT_NE(mixed.find("warning: kept"), std::string::npos) << mixed;
    EXPECT_NE(mixed.find("\n1 warning generated."), std::string::npos) << mixed;
    const CompileResult unknown = compile(
        "#pragma OPENCL EXTENSION cl_khr_subgroup_shufle : enable\nkernel void k() {}\n", std);
    EXPECT_NE(unknown.log.find("warning: OpenCL extension 'cl_khr_subgroup_shufle' unknown"),
              std::string::npos)
        << unknown.log;
  }
}

// cl_intel_media_block_io: the prelude declares the built-ins clang-15 lacks, for
// read_only, write_only and (OpenCL C 2.0 and later) read_write images.
TEST_F(DriverTest, IntelMediaBlockFunctions) {
  const std::string source = R"(
    kernel void k(read_only image2d_t r, write_only image2d_t w, int2 c, global ushort4* o) {
      o[0] = intel_sub_group_media_block_read_us4(c, 16, 2, r);
      intel_sub_group_media_block_write_uc16(c, 32, 4, (uchar16)(o[1].x), w);
    }
    #if __OPENCL_C_VERSION__ >= 200
    kernel void rw(read_write image2d_t img, int2 c) {
      uint v = intel_sub_group_media_block_read_ui(c, 1, 16, img);
      intel_sub_group_media_block_write_ui(c, 1, 16, v + 1, img);
    }
    #endif
  )";
  for (const std::string& std : {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    const CompileResult r = compile(source, std);
    const spirv::Module m = spirv::loadModule(r.words);
    const size_t rw = std == "-cl-std=CL1.2" ? 0 : 1;
    EXPECT_EQ(find(m, Op::OpSubgroupImageMediaBlockReadINTEL).size(), 1 + rw) << std;
    EXPECT_EQ(find(m, Op::OpSubgroupImageMediaBlockWriteINTEL).size(), 1 + rw) << std;
  }
}

// -g with optimisation: DIExpressions llvm-spirv-15 only takes with
// --spirv-allow-extra-diexpressions, blocks before their dominators, loops over
// private arrays.
TEST_F(DriverTest, DebugInfoWithOptimisation) {
  for (const std::string& level : {"-O1 -g", "-O2 -g", "-O3 -g"}) {
    const CompileResult r = compile(R"(
      #pragma OPENCL EXTENSION cl_khr_fp16 : enable
      kernel void k(global half* h, global float* o, global const float* A, int n) {
        int i = get_global_id(0);
        float a[8];
        for (int k = 0; k < 8; ++k) a[k] = A[i * 8 + k] * k;
        float acc = 0;
        for (int k = 0; k < n; ++k) acc += a[(k * 3) & 7];
        o[i] = acc + (float)(h[i] * (half)2.0h);
      })",
                                    level);
    EXPECT_EQ(r.log, "") << level;
    EXPECT_NO_THROW(spirv::loadModule(r.words)) << level;
  }
}

// A translator that fails its first `failures` runs (a stand-in for an llvm-spirv-15
// defect at the requested level), first on PATH for the test's duration.
class FailingTranslator {
 public:
  explicit FailingTranslator(int failures) {
    const std::string real = *findOnPath("llvm-spirv-15");
    dir_ = std::filesystem::path(::testing::TempDir()) / "failing-translator";
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    const auto script = dir_ / "llvm-spirv-15";
    std::ofstream(script)
        << "#!/bin/sh\n"
        << "n=$(cat '" << (dir_ / "runs").string() << "' 2>/dev/null || echo 0)\n"
        << "echo $((n + 1)) > '" << (dir_ / "runs").string() << "'\n"
        << "if [ $n -lt " << failures << " ]; then\n"
        << "  echo \"InvalidInstruction: Can't translate llvm instruction:\" >&2\n"
        << "  echo \"   %1 = frobnicate i32 %0 [Src: x.cpp:1 false ]\" >&2\n"
        << "  exit 15\nfi\nexec '" << real << "' \"$@\"\n";
    std::filesystem::permissions(script, std::filesystem::perms::owner_all);
    path_ = std::getenv("PATH");
    setenv("PATH", (dir_.string() + ":" + path_).c_str(), 1);
  }
  ~FailingTranslator() { setenv("PATH", path_.c_str(), 1); }

 private:
  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(DriverTest, ATranslatorFailureIsRetriedAtLowerLevelsWithAWarning) {
  FailingTranslator failing(1);
  const CompileResult r = compile("kernel void k(global int* a) { a[0] = 1; }", "-O3");
  EXPECT_EQ(r.log,
            "warning: llvm-spirv-15 cannot translate the kernel at -O3 (InvalidInstruction: "
            "Can't translate llvm instruction: %1 = frobnicate i32 %0); compiling at -O1 "
            "instead\n");
  EXPECT_NE(r.commands[0].find(" -O1 "), std::string::npos) << r.commands[0];
  EXPECT_NO_THROW(spirv::loadModule(r.words));
}

TEST_F(DriverTest, FailingAtEveryLevelIsAnError) {
  FailingTranslator failing(3);
  try {
    compile("kernel void k(global int* a) { a[0] = 1; }");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Compile);
    EXPECT_EQ(std::string(e.what()),
              "llvm-spirv-15 cannot translate the kernel at -O2 (InvalidInstruction: Can't "
              "translate llvm instruction: %1 = frobnicate i32 %0) (and at -O0 too)");
  }
}

TEST_F(DriverTest, UnsupportedCapabilitiesAreNotRetriedAtLowerLevels) {
  try {
    // Integer dot products (cl_khr_integer_dot_product, not claimed: the kernel defines
    // the feature macro itself) need the DotProductInput4x8Bit capability.
    compile("kernel void k(global int* o, global char4* a) { o[0] = dot(a[0], a[1]); }",
            "-cl-std=CL3.0 -D__opencl_c_integer_dot_product_input_4x8bit=1 "
            "-Dcl_khr_integer_dot_product=1");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported) << e.what();
  }
}

}  // namespace
}  // namespace spvsim::compiler
