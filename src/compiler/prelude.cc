#include "src/compiler/prelude.h"

#include <fmt/format.h>

#include "src/compiler/opencl_c_support.h"

namespace spvsim::compiler {
namespace {

// Vector suffixes of the OpenCL C built-in types ("" is the scalar).
constexpr const char* kWidths[] = {"", "2", "3", "4", "8", "16"};

// cl_intel_subgroups_char: the Intel shuffles of (u)char and (u)charN, which clang-15
// declares only for the other integer types; llvm-spirv-15 translates them by name to
// OpSubgroupShuffle*INTEL of 8-bit integers.
std::string charShuffles() {
  std::string out;
  for (const char* base : {"char", "uchar"})
    for (const char* n : kWidths) {
      const std::string t = fmt::format("{}{}", base, n);
      out += fmt::format("{0} __spvsim_ovld intel_sub_group_shuffle({0}, uint);\n", t);
      out += fmt::format("{0} __spvsim_ovld intel_sub_group_shuffle_xor({0}, uint);\n", t);
      out += fmt::format("{0} __spvsim_ovld intel_sub_group_shuffle_down({0}, {0}, uint);\n", t);
      out += fmt::format("{0} __spvsim_ovld intel_sub_group_shuffle_up({0}, {0}, uint);\n", t);
    }
  return out;
}

// Buffer block reads and writes of `base` elements (suffix `_uc`, `_ul`) that clang-15
// does not declare; llvm-spirv-15 translates them to OpSubgroupBlock{Read,Write}INTEL.
std::string blockIO(const char* base, const char* suffix, std::initializer_list<const char*> ns) {
  std::string out;
  for (const char* n : ns) {
    out += fmt::format(
        "{0}{1} __spvsim_ovld intel_sub_group_block_read{2}{1}(const __global {0}* p);\n", base, n,
        suffix);
    out += fmt::format(
        "void __spvsim_ovld intel_sub_group_block_write{2}{1}(__global {0}* p, {0}{1} data);\n",
        base, n, suffix);
  }
  return out;
}

// cl_intel_media_block_io reads (read_only and read_write images) and writes
// (write_only and read_write), which clang-15 does not declare; llvm-spirv-15 translates
// them by name to OpSubgroupImageMedia{Read,Write}BlockINTEL.
std::string mediaBlockIO(const char* access) {
  const bool reads = std::string(access) != "write_only",
             writes = std::string(access) != "read_only";
  std::string out;
  for (const char* t : {"uc", "us", "ui"})
    for (const char* n : {"", "2", "4", "8", "16"}) {
      if (t == std::string("ui") && n == std::string("16")) continue;  // not in the extension
      const std::string base = t == std::string("uc")   ? "uchar"
                               : t == std::string("us") ? "ushort"
                                                        : "uint";
      if (reads)
        out += fmt::format(
            "{0}{1} __spvsim_ovld intel_sub_group_media_block_read_{2}{1}(int2 src_offset, "
            "int width, int height, {3} image2d_t image);\n",
            base, n, t, access);
      if (writes)
        out += fmt::format(
            "void __spvsim_ovld intel_sub_group_media_block_write_{2}{1}(int2 src_offset, "
            "int width, int height, {0}{1} texels, {3} image2d_t image);\n",
            base, n, t, access);
    }
  return out;
}

}  // namespace

std::string preludeText() {
  std::string out = "// spvsim's OpenCL C prelude (src/compiler/prelude.cc)\n";
  for (const std::string& name : unsupportedPredefinedMacros())
    out += fmt::format("#undef {}\n", name);
  out += "#define __spvsim_ovld __attribute__((overloadable, convergent))\n";
  // intel_sub_group_broadcast/reduce/scan of (u)char and (u)short are the khr functions
  // of cl_khr_subgroup_extended_types (the Intel specifications define them so), which
  // llvm-spirv-15 translates; it leaves the intel_ names as unresolved calls.
  for (const char* op : {"broadcast", "reduce_add", "reduce_min", "reduce_max",
                         "scan_inclusive_add", "scan_inclusive_min", "scan_inclusive_max",
                         "scan_exclusive_add", "scan_exclusive_min", "scan_exclusive_max"})
    out += fmt::format("#define intel_sub_group_{0} sub_group_{0}\n", op);
  out += "#if defined(cl_intel_subgroups_char)\n" + charShuffles() +
         blockIO("uchar", "_uc", {"", "2", "4", "8", "16"}) + "#endif\n";
  out += "#if defined(cl_intel_subgroups_long)\n" + blockIO("ulong", "_ul", {"", "2", "4", "8"}) +
         "#endif\n";
  out += "#if defined(cl_intel_media_block_io)\n" + mediaBlockIO("read_only") +
         mediaBlockIO("write_only") +
         "#if defined(__opencl_c_read_write_images) && __OPENCL_C_VERSION__ >= 200\n" +
         mediaBlockIO("read_write") + "#endif\n#endif\n";
  return out;
}

}  // namespace spvsim::compiler
