#include "src/compiler/prelude.h"

#include <fmt/format.h>

#include "src/compiler/opencl_c_support.h"

namespace spvsim::compiler {
namespace {

// Vector suffixes of the OpenCL C built-in types ("" is the scalar).
constexpr const char* kWidths[] = {"", "2", "3", "4", "8", "16"};

// __OPENCL_VERSION__ is the device's OpenCL version (OpenCL C spec, "Predefined Macros":
// it must be defined, and for a device above OpenCL 2.0 it may be any value over 200);
// clang-15 does not define it for spir64. __OPENCL_C_VERSION__ follows -cl-std and is
// clang's own. A -D of the kernel's build options wins (it comes before the prelude).
std::string versionMacro() {
  return fmt::format("#ifndef __OPENCL_VERSION__\n#define __OPENCL_VERSION__ {}\n#endif\n",
                     kDeviceOpenCLVersion);
}

// clang-15 takes `#pragma OPENCL EXTENSION NAME : enable|disable` only for extensions its
// OpenCLExtensions.def marks as taking one; for the device's others (cl_khr_expect_assume,
// cl_ext_float_atomics, cl_khr_subgroup_*, the Intel ones, ...) a correct program gets
// "OpenCL extension 'NAME' unknown or does not require pragma - ignoring". `begin` makes an
// extension known, supported and pragma-taking (clang's mechanism for extensions declared
// in headers) and changes nothing for those clang already has.
std::string extensionPragmas() {
  std::string out;
  for (const std::string& name : supportedExtensions())
    out += fmt::format(
        "#ifdef {0}\n#pragma OPENCL EXTENSION {0} : begin\n#pragma OPENCL EXTENSION {0} : "
        "end\n#endif\n",
        name);
  return out;
}

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

// One family of Intel block functions: intel_sub_group_block_{read,write}<suffix><n>
// of `element`n data (suffix "" is cl_intel_subgroups' uint family).
struct BlockFamily {
  const char* element;
  const char* suffix;
  std::initializer_list<const char*> widths;
};
constexpr BlockFamily kUint{"uint", "", {"", "2", "4", "8"}};
constexpr BlockFamily kUi{"uint", "_ui", {"", "2", "4", "8"}};
constexpr BlockFamily kUs{"ushort", "_us", {"", "2", "4", "8"}};
constexpr BlockFamily kUc{"uchar", "_uc", {"", "2", "4", "8", "16"}};
constexpr BlockFamily kUl{"ulong", "_ul", {"", "2", "4", "8"}};

// Buffer block reads and writes; llvm-spirv-15 translates them by name to
// OpSubgroupBlock{Read,Write}INTEL.
std::string bufferBlockIO(const BlockFamily& f) {
  std::string out;
  for (const char* n : f.widths) {
    out += fmt::format(
        "{0}{1} __spvsim_ovld intel_sub_group_block_read{2}{1}(const __global {0}* p);\n",
        f.element, n, f.suffix);
    out += fmt::format(
        "void __spvsim_ovld intel_sub_group_block_write{2}{1}(__global {0}* p, {0}{1} data);\n",
        f.element, n, f.suffix);
  }
  return out;
}

// Image block reads of `access` image2d_t (read_only, read_write) or writes (write_only,
// read_write); llvm-spirv-15 translates them by name to OpSubgroupImageBlock*INTEL.
std::string imageBlockIO(const BlockFamily& f, const char* access, bool reads, bool writes) {
  std::string out;
  for (const char* n : f.widths) {
    if (reads)
      out += fmt::format(
          "{0}{1} __spvsim_ovld intel_sub_group_block_read{2}{1}({3} image2d_t image, "
          "int2 byte_coord);\n",
          f.element, n, f.suffix, access);
    if (writes)
      out += fmt::format(
          "void __spvsim_ovld intel_sub_group_block_write{2}{1}({3} image2d_t image, "
          "int2 byte_coord, {0}{1} data);\n",
          f.element, n, f.suffix, access);
  }
  return out;
}

// The image forms of a family for every access its reads and writes take (the Intel
// implementations' declarations: reads of read_only, writes of write_only images, both of
// read_write ones from OpenCL C 2.0).
std::string imageBlockIO(const BlockFamily& f) {
  return imageBlockIO(f, "read_only", true, false) + imageBlockIO(f, "write_only", false, true) +
         "#if defined(__opencl_c_read_write_images)\n" + imageBlockIO(f, "read_write", true, true) +
         "#endif\n";
}

// intel_sub_group_block_{read,write}_us16 (cl_intel_subgroups_short), which llvm-spirv-15
// cannot translate (an assertion: 16 components only for char), as two _us8 blocks with
// the same layout. Buffers: component k of lane l is p[k * S + l] for the maximum
// sub-group size S, so components 8..15 are the _us8 block at p + 8 * S. Images:
// component k of every lane is in row y + k, so components 8..15 are the _us8 block at
// row y + 8.
std::string ushort16BlockIO() {
  std::string out =
      "#if defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)\n"
      "__spvsim_inline ushort16 __spvsim_ovld intel_sub_group_block_read_us16("
      "const __global ushort* p) {\n"
      "  return (ushort16)(intel_sub_group_block_read_us8(p),\n"
      "                    intel_sub_group_block_read_us8(p + 8 * get_max_sub_group_size()));\n"
      "}\n"
      "__spvsim_inline void __spvsim_ovld intel_sub_group_block_write_us16("
      "__global ushort* p, ushort16 data) {\n"
      "  intel_sub_group_block_write_us8(p, data.lo);\n"
      "  intel_sub_group_block_write_us8(p + 8 * get_max_sub_group_size(), data.hi);\n"
      "}\n"
      "#endif\n";
  auto image = [](const char* access, bool reads, bool writes) {
    std::string s;
    if (reads)
      s += fmt::format(
          "__spvsim_inline ushort16 __spvsim_ovld intel_sub_group_block_read_us16("
          "{0} image2d_t image, int2 byte_coord) {{\n"
          "  return (ushort16)(intel_sub_group_block_read_us8(image, byte_coord),\n"
          "      intel_sub_group_block_read_us8(image, byte_coord + (int2)(0, 8)));\n"
          "}}\n",
          access);
    if (writes)
      s += fmt::format(
          "__spvsim_inline void __spvsim_ovld intel_sub_group_block_write_us16("
          "{0} image2d_t image, int2 byte_coord, ushort16 data) {{\n"
          "  intel_sub_group_block_write_us8(image, byte_coord, data.lo);\n"
          "  intel_sub_group_block_write_us8(image, byte_coord + (int2)(0, 8), data.hi);\n"
          "}}\n",
          access);
    return s;
  };
  return out + "#if defined(__IMAGE_SUPPORT__)\n" + image("read_only", true, false) +
         image("write_only", false, true) + "#if defined(__opencl_c_read_write_images)\n" +
         image("read_write", true, true) + "#endif\n#endif\n";
}

// The Intel block functions clang-15 lacks: the buffer and image2d_t forms of the char
// and long extensions, the short extension's ushort16, the write_only image forms of the
// _ui writes (clang-15 declares them read_only), and, before OpenCL C 2.0 (where
// clang-15's header leaves __opencl_c_images undefined), the image forms it declares
// only from 2.0 on.
std::string intelBlockIO() {
  std::string out = "#if defined(cl_intel_subgroups_char)\n" + bufferBlockIO(kUc) +
                    "#if defined(__IMAGE_SUPPORT__)\n" + imageBlockIO(kUc) + "#endif\n#endif\n";
  out += "#if defined(cl_intel_subgroups_long)\n" + bufferBlockIO(kUl) +
         "#if defined(__IMAGE_SUPPORT__)\n" + imageBlockIO(kUl) + "#endif\n#endif\n";
  out += "#if defined(cl_intel_subgroups_short)\n#if defined(__IMAGE_SUPPORT__)\n" +
         imageBlockIO(kUi, "write_only", false, true) + "#if !defined(__opencl_c_images)\n" +
         imageBlockIO(kUi, "read_only", true, false) + imageBlockIO(kUs, "read_only", true, false) +
         imageBlockIO(kUs, "write_only", false, true) + "#endif\n#endif\n" + ushort16BlockIO() +
         "#endif\n";
  out +=
      "#if defined(cl_intel_subgroups) && defined(__IMAGE_SUPPORT__) && "
      "!defined(__opencl_c_images)\n" +
      imageBlockIO(kUint, "read_only", true, false) +
      imageBlockIO(kUint, "write_only", false, true) + "#endif\n";
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
  out += versionMacro() + extensionPragmas();
  out += "#define __spvsim_ovld __attribute__((overloadable, convergent))\n";
  // Functions the prelude defines: inlined at every level, and local to the program
  // (two compiled objects that both use them link); OpenCL C 1.1 has no `static`.
  out +=
      "#if defined(__OPENCL_CPP_VERSION__) || __OPENCL_C_VERSION__ >= 120\n"
      "#define __spvsim_inline static inline __attribute__((always_inline))\n"
      "#else\n#define __spvsim_inline inline __attribute__((always_inline))\n#endif\n";
  // intel_sub_group_broadcast/reduce/scan of (u)char and (u)short are the khr functions
  // of cl_khr_subgroup_extended_types (the Intel specifications define them so), which
  // llvm-spirv-15 translates; it leaves the intel_ names as unresolved calls.
  for (const char* op : {"broadcast", "reduce_add", "reduce_min", "reduce_max",
                         "scan_inclusive_add", "scan_inclusive_min", "scan_inclusive_max",
                         "scan_exclusive_add", "scan_exclusive_min", "scan_exclusive_max"})
    out += fmt::format("#define intel_sub_group_{0} sub_group_{0}\n", op);
  out += "#if defined(cl_intel_subgroups_char)\n" + charShuffles() + "#endif\n";
  out += intelBlockIO();
  out += "#if defined(cl_intel_media_block_io)\n" + mediaBlockIO("read_only") +
         mediaBlockIO("write_only") +
         "#if defined(__opencl_c_read_write_images) && __OPENCL_C_VERSION__ >= 200\n" +
         mediaBlockIO("read_write") + "#endif\n#endif\n";
  return out;
}

}  // namespace spvsim::compiler
