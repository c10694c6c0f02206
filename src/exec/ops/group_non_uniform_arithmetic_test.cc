// cl_khr_subgroup_non_uniform_arithmetic and cl_khr_subgroup_clustered_reduce end to end:
// every op x GroupOperation x gentype, in divergent code selected by the CTS lane masks,
// at sub-group sizes 4..64 over every rangeCases() shape. Expected values come from a
// host model that walks the partition of subgroup_test_util.h: for each lane, the
// active lanes of its sub-group that the operation covers, folded in lane order.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "src/exec/ops/subgroup_test_util.h"

namespace spvsim {
namespace {

using testing::ctsLaneMasks;
using testing::laneSelected;
using testing::partitionSubGroups;
using testing::rangeCases;
using testing::subGroupSizes;

const uint32_t kClusterSizes[] = {1, 2, 4, 8, 16, 32, 64};

// One output of a kernel: sub_group_non_uniform_<operation>_<op>(x), or, when
// `cluster` is set, sub_group_clustered_reduce_<op>(x, cluster).
struct Slot {
  std::string op;         // add, mul, min, max, and, or, xor, logical_and, ...
  std::string operation;  // reduce, scan_inclusive, scan_exclusive
  uint32_t cluster = 0;
};

std::vector<Slot> slotsFor(const std::vector<std::string>& ops) {
  std::vector<Slot> slots;
  for (const auto& op : ops) {
    for (const char* operation : {"reduce", "scan_inclusive", "scan_exclusive"})
      slots.push_back({op, operation, 0});
    for (uint32_t c : kClusterSizes) slots.push_back({op, "reduce", c});
  }
  return slots;
}

std::vector<std::string> opsFor(bool integer) {
  if (integer) return {"add", "mul", "min", "max", "and", "or", "xor"};
  return {"add", "mul", "min", "max"};
}

const std::vector<Slot>& logicalSlots() {
  static const auto slots = slotsFor({"logical_and", "logical_or", "logical_xor"});
  return slots;
}

// A kernel writing slot k of work-item i to out[i * K + k], inside
// `if (lane selected by mask)`. mul reads `m` (values whose products stay exact); the
// logical ops take int predicates. Clusters larger than the sub-group are skipped.
std::string kernelSource(const std::string& name, const std::string& type,
                         const std::vector<Slot>& slots) {
  std::string s = "kernel void " + name + "(global const " + type + "* a, global const " + type +
                  "* m, global " + type + "* out, uint mask) {\n" +
                  "  size_t i = get_global_linear_id();\n"
                  "  uint width = get_max_sub_group_size();\n"
                  "  if ((mask >> (get_sub_group_local_id() % 32)) & 1) {\n    " +
                  type + " x = a[i], y = m[i];\n    global " + type + "* o = out + i * " +
                  std::to_string(slots.size()) + ";\n";
  for (size_t k = 0; k < slots.size(); ++k) {
    const Slot& slot = slots[k];
    const std::string arg = slot.op == "mul" ? "y" : "x";
    const std::string store = "o[" + std::to_string(k) + "] = ";
    if (slot.cluster)
      s += "    if (width >= " + std::to_string(slot.cluster) + ") " + store +
           "sub_group_clustered_reduce_" + slot.op + "(" + arg + ", " +
           std::to_string(slot.cluster) + ");\n";
    else
      s += "    " + store + "sub_group_non_uniform_" + slot.operation + "_" + slot.op + "(" + arg +
           ");\n";
  }
  return s + "  }\n}\n";
}

struct TypeCase {
  const char* name;
  bool integer;
};
const TypeCase kTypes[] = {{"char", true},  {"uchar", true},  {"short", true},  {"ushort", true},
                           {"int", true},   {"uint", true},   {"long", true},   {"ulong", true},
                           {"half", false}, {"float", false}, {"double", false}};

Program& program() {
  static const std::shared_ptr<Program> p = [] {
    std::string source =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    for (const auto& t : kTypes)
      source += kernelSource(std::string("nu_") + t.name, t.name, slotsFor(opsFor(t.integer)));
    source += kernelSource("nu_logical", "int", logicalSlots());
    // The NaN rule of FMin/FMax: float inputs with NaNs.
    std::vector<Slot> minMax;
    for (const auto& slot : slotsFor({"min", "max"})) minMax.push_back(slot);
    source += kernelSource("nu_float_nan", "float", minMax);
    return testing::loadOpenCl(source, "non-uniform arithmetic kernels");
  }();
  return *p;
}

// ---- Host model ------------------------------------------------------------------

template <class T>
constexpr bool kIsInt = std::is_integral_v<T>;

template <class T>
T hostIdentity(const std::string& op) {
  if (op == "add" || op == "or" || op == "xor" || op == "logical_or" || op == "logical_xor")
    return T(0);
  if (op == "mul" || op == "logical_and") return T(1);
  if (op == "and") return T(-1);
  const float inf = std::numeric_limits<float>::infinity();
  if (op == "min") {
    if constexpr (kIsInt<T>) return std::numeric_limits<T>::max();
    return T(inf);
  }
  if constexpr (kIsInt<T>) return std::numeric_limits<T>::lowest();
  return T(-inf);
}

// One step of the fold; integers wrap modulo 2^bits.
template <class T>
T hostApply(const std::string& op, T a, T b) {
  if constexpr (kIsInt<T>) {
    using U = std::make_unsigned_t<T>;
    if (op == "add") return T(U(uint64_t(a) + uint64_t(b)));
    if (op == "mul") return T(U(uint64_t(a) * uint64_t(b)));
    if (op == "and") return T(a & b);
    if (op == "or") return T(a | b);
    if (op == "xor") return T(a ^ b);
    if (op == "logical_and") return T((a != 0) && (b != 0));
    if (op == "logical_or") return T((a != 0) || (b != 0));
    if (op == "logical_xor") return T((a != 0) != (b != 0));
    if (op == "min") return b < a ? b : a;
    return a < b ? b : a;
  } else {
    if (op == "add") return T(a + b);
    if (op == "mul") return T(a * b);
    // SPIR-V: "if for any two Values one of them is a NaN, the other is chosen".
    if (std::isnan(double(a))) return b;
    if (std::isnan(double(b))) return a;
    if (op == "min") return b < a ? b : a;
    return a < b ? b : a;
  }
}

template <class T>
T hostFold(const std::string& op, const std::vector<T>& values) {
  if (values.empty()) return hostIdentity<T>(op);
  T acc = values[0];
  for (size_t k = 1; k < values.size(); ++k) acc = hostApply(op, acc, values[k]);
  // The logical ops read predicates: a lone value still becomes 0 or 1.
  if (op.rfind("logical_", 0) == 0) acc = T(acc != 0);
  return acc;
}

// Which active lanes a slot combines for lane `l`.
bool covers(const Slot& slot, uint32_t lane, uint32_t l) {
  if (slot.cluster) return lane / slot.cluster == l / slot.cluster;
  if (slot.operation == "scan_inclusive") return lane <= l;
  if (slot.operation == "scan_exclusive") return lane < l;
  return true;
}

template <class T>
T sentinel() {
  return kIsInt<T> ? T(97) : T(-77.25f);
}

// Expected output of one launch: sentinel wherever no result is written.
template <class T>
std::vector<T> model(const std::vector<Slot>& slots, const NDRange& range, uint32_t width,
                     uint32_t mask, const std::vector<T>& a, const std::vector<T>& m) {
  std::vector<T> out(a.size() * slots.size(), sentinel<T>());
  for (const auto& sg : partitionSubGroups(range, width)) {
    std::vector<uint32_t> active;
    for (uint32_t l = 0; l < sg.items.size(); ++l)
      if (laneSelected(mask, l)) active.push_back(l);
    for (uint32_t l : active)
      for (size_t k = 0; k < slots.size(); ++k) {
        const Slot& slot = slots[k];
        if (slot.cluster > width) continue;
        const std::vector<T>& in = slot.op == "mul" ? m : a;
        std::vector<T> values;
        for (uint32_t lane : active)
          if (covers(slot, lane, l)) values.push_back(in[sg.items[lane]]);
        out[sg.items[l] * slots.size() + k] = hostFold(slot.op, values);
      }
  }
  return out;
}

// ---- Inputs and checking ---------------------------------------------------------

uint32_t mix(uint64_t i) { return uint32_t((i * 2654435761u) >> 7); }

// Small values, negative ones too (large in the unsigned types); floats in halves, so
// every sum of 64 of them is exact even in half.
template <class T>
std::vector<T> inputs(size_t n) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    const int k = int(mix(i) % 33) - 16;
    v[i] = kIsInt<T> ? T(k / 2) : T(float(k) / 2);
  }
  return v;
}

// Mostly 1, sometimes -1 or 2: products of up to 64 stay small and exact.
template <class T>
std::vector<T> mulInputs(size_t n) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t h = mix(i + 1000) % 16;
    v[i] = h == 0 ? T(2) : h == 1 ? T(-1) : T(1);
  }
  return v;
}

template <class T>
auto printable(T v) {
  if constexpr (kIsInt<T>)
    return int64_t(v);
  else
    return double(v);
}

template <class T>
bool same(T expected, T actual) {
  if constexpr (kIsInt<T>)
    return expected == actual;
  else
    return bool(testing::sameFloat(expected, actual));
}

template <class T>
LaunchResult launch(const std::string& kernel, const NDRange& range, uint32_t width, uint32_t mask,
                    std::vector<T>& a, std::vector<T>& m, std::vector<T>& out) {
  LaunchOptions options;
  options.subGroupSize = width;
  std::vector<uint8_t> maskBytes(4);
  std::memcpy(maskBytes.data(), &mask, 4);
  return program().launch(
      kernel, range,
      {testing::bind(a), testing::bind(m), testing::bind(out), ArgBinding::bytes(maskBytes)},
      options);
}

// Runs `kernel` at every size x shape x CTS mask and compares with the model.
template <class T>
void checkKernel(const std::string& kernel, const std::vector<Slot>& slots, std::vector<T> a,
                 std::vector<T> m) {
  for (uint32_t width : subGroupSizes())
    for (const auto& rc : rangeCases())
      for (uint32_t mask : ctsLaneMasks()) {
        const size_t n = testing::globalItems(rc.range);
        std::vector<T> out(n * slots.size(), sentinel<T>());
        std::vector<T> aa(a.begin(), a.begin() + n), mm(m.begin(), m.begin() + n);
        LaunchResult r = launch(kernel, rc.range, width, mask, aa, mm, out);
        std::ostringstream where;
        where << kernel << " width " << width << " " << rc.name << " mask 0x" << std::hex << mask;
        EXPECT_TRUE(r.diagnostics.empty()) << where.str() << "\n" << testing::describe(r);
        const std::vector<T> expected = model(slots, rc.range, width, mask, aa, mm);
        int failures = 0;
        for (size_t e = 0; e < out.size() && failures < 5; ++e) {
          if (same(expected[e], out[e])) continue;
          ++failures;
          const Slot& slot = slots[e % slots.size()];
          ADD_FAILURE() << where.str() << ": work-item " << e / slots.size() << " " << slot.op
                        << " "
                        << (slot.cluster ? "clustered " + std::to_string(slot.cluster)
                                         : slot.operation)
                        << ": expected " << printable(expected[e]) << ", got " << printable(out[e]);
        }
      }
}

template <class T>
void checkType(const char* type, bool integer) {
  const size_t n = 400;
  checkKernel<T>(std::string("nu_") + type, slotsFor(opsFor(integer)), inputs<T>(n),
                 mulInputs<T>(n));
}

TEST(GroupNonUniformArithmetic, Char) { checkType<int8_t>("char", true); }
TEST(GroupNonUniformArithmetic, Uchar) { checkType<uint8_t>("uchar", true); }
TEST(GroupNonUniformArithmetic, Short) { checkType<int16_t>("short", true); }
TEST(GroupNonUniformArithmetic, Ushort) { checkType<uint16_t>("ushort", true); }
TEST(GroupNonUniformArithmetic, Int) { checkType<int32_t>("int", true); }
TEST(GroupNonUniformArithmetic, Uint) { checkType<uint32_t>("uint", true); }
TEST(GroupNonUniformArithmetic, Long) { checkType<int64_t>("long", true); }
TEST(GroupNonUniformArithmetic, Ulong) { checkType<uint64_t>("ulong", true); }
TEST(GroupNonUniformArithmetic, Half) { checkType<_Float16>("half", false); }
TEST(GroupNonUniformArithmetic, Float) { checkType<float>("float", false); }
TEST(GroupNonUniformArithmetic, Double) { checkType<double>("double", false); }

// sub_group_non_uniform_*_logical_* take int predicates; the results are 0 or 1.
TEST(GroupNonUniformArithmetic, Logical) {
  std::vector<int32_t> a(400);
  for (size_t i = 0; i < a.size(); ++i) a[i] = mix(i) % 5 == 0 ? 0 : int32_t(mix(i) % 7) - 3;
  checkKernel<int32_t>("nu_logical", logicalSlots(), a, a);
}

// FMin/FMax skip NaN operands; the rest of the inputs as before.
TEST(GroupNonUniformArithmetic, FloatMinMaxWithNaN) {
  std::vector<float> a = inputs<float>(400);
  for (size_t i = 0; i < a.size(); ++i)
    if (mix(i + 7) % 3 == 0) a[i] = std::numeric_limits<float>::quiet_NaN();
  checkKernel<float>("nu_float_nan", slotsFor({"min", "max"}), a, a);
}

// ---- Hand-written SPIR-V: vectors, Workgroup scope -------------------------------

// A kernel that applies `op` to in[i] (a vector of `componentType`, `count` components)
// and stores out[i]; `extra` holds any further declarations the op needs.
std::string vectorModule(const std::string& op, const std::string& componentType, uint32_t count,
                         const std::string& extra = "") {
  return R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability GroupNonUniform
               OpCapability GroupNonUniformArithmetic
               OpCapability GroupNonUniformClustered
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpDecorate %gid BuiltIn GlobalLinearId
               OpDecorate %gid Constant
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
          %T = OpTypeVector )" +
         componentType + " " + std::to_string(count) + R"(
       %void = OpTypeVoid
     %ptr_in = OpTypePointer Input %ulong
      %ptr_T = OpTypePointer CrossWorkgroup %T
         %fn = OpTypeFunction %void %ptr_T %ptr_T
        %gid = OpVariable %ptr_in Input
   %subgroup = OpConstant %uint 3
  %workgroup = OpConstant %uint 2
     %uint_2 = OpConstant %uint 2
)" + extra +
         R"(
          %k = OpFunction %void None %fn
         %in = OpFunctionParameter %ptr_T
        %out = OpFunctionParameter %ptr_T
      %entry = OpLabel
          %i = OpLoad %ulong %gid
        %pin = OpInBoundsPtrAccessChain %ptr_T %in %i
          %x = OpLoad %T %pin
          %r = )" +
         op + R"(
       %pout = OpInBoundsPtrAccessChain %ptr_T %out %i
               OpStore %pout %r
               OpReturn
               OpFunctionEnd
)";
}

std::shared_ptr<Program> loadAssembly(const std::string& text) {
  return Program::load(spirv::assemble(text));
}

// SPIR-V allows vectors: each component is reduced on its own (vec3 keeps stride 4).
TEST(GroupNonUniformArithmetic, VectorsComponentwise) {
  auto scan = loadAssembly(
      vectorModule("OpGroupNonUniformFAdd %T %subgroup InclusiveScan %x", "%float", 3));
  auto clustered = loadAssembly(
      vectorModule("OpGroupNonUniformUMax %T %subgroup ClusteredReduce %x %uint_2", "%uint", 2));
  const uint32_t width = 8;
  NDRange range = testing::makeRange(1, {20, 1, 1}, {20, 1, 1});  // sub-groups 8, 8, 4
  std::vector<float> f(20 * 4), fout(20 * 4, -1.0f);
  for (size_t i = 0; i < f.size(); ++i) f[i] = float(int(i % 9) - 4);
  LaunchResult r = testing::runRange(*scan, "k", range, width, f, fout);
  EXPECT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  for (const auto& sg : partitionSubGroups(range, width))
    for (uint32_t l = 0; l < sg.items.size(); ++l)
      for (uint32_t c = 0; c < 3; ++c) {
        float sum = 0;
        for (uint32_t j = 0; j <= l; ++j) sum += f[sg.items[j] * 4 + c];
        EXPECT_EQ(fout[sg.items[l] * 4 + c], sum) << "lane " << l << " component " << c;
      }
  std::vector<uint32_t> u(20 * 2), uout(20 * 2, 0);
  for (size_t i = 0; i < u.size(); ++i) u[i] = mix(i) % 1000;
  r = testing::runRange(*clustered, "k", range, width, u, uout);
  EXPECT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  for (const auto& sg : partitionSubGroups(range, width))
    for (uint32_t l = 0; l < sg.items.size(); ++l)
      for (uint32_t c = 0; c < 2; ++c) {
        const uint32_t first = l / 2 * 2;
        uint32_t expected = u[sg.items[first] * 2 + c];
        if (first + 1 < sg.items.size())
          expected = std::max(expected, u[sg.items[first + 1] * 2 + c]);
        EXPECT_EQ(uout[sg.items[l] * 2 + c], expected) << "lane " << l << " component " << c;
      }
}

// OpenCL has no work-group non-uniform operations: lowering refuses loudly.
TEST(GroupNonUniformArithmetic, WorkgroupScopeIsUnsupported) {
  auto p = loadAssembly(vectorModule("OpGroupNonUniformIAdd %T %workgroup Reduce %x", "%uint", 2));
  std::vector<uint32_t> in(16, 1), out(16, 0);
  try {
    testing::runRange(*p, "k", testing::makeRange(1, {8, 1, 1}, {8, 1, 1}), 8, in, out);
    ADD_FAILURE() << "a Workgroup-scope OpGroupNonUniformIAdd ran";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("Workgroup"), std::string::npos) << e.what();
  }
}

// ---- Diagnostics -----------------------------------------------------------------

Program& clusterProgram() {
  static const auto p = testing::loadOpenCl(
      "kernel void k(global const int* a, global int* out) {\n"
      "  size_t i = get_global_linear_id();\n"
      "  if (get_sub_group_local_id() % 2 == 0)\n"
      "    out[i] = sub_group_clustered_reduce_add(a[i], 16);\n"
      "}\n",
      "cluster kernel");
  return *p;
}

// ClusterSize above the sub-group size is undefined behaviour: an error naming both
// sizes, for the lanes that executed it.
TEST(GroupNonUniformArithmetic, ClusterLargerThanSubGroupIsReported) {
  std::vector<int32_t> a(16, 1), out(16, 0);
  NDRange range = testing::makeRange(1, {16, 1, 1}, {16, 1, 1});
  LaunchResult r = testing::runRange(clusterProgram(), "k", range, 8, a, out);
  ASSERT_EQ(r.diagnostics.size(), 1u) << testing::describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::ShuffleOutOfRange);
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.lanes, (std::vector<uint32_t>{0, 2, 4, 6}));
  EXPECT_NE(d.message.find("ClusterSize 16"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("sub-group size is 8"), std::string::npos) << d.message;
  EXPECT_EQ(d.repeats, 1u);  // the second sub-group
  EXPECT_EQ(out[0], 4);      // the whole sub-group's four active lanes
}

TEST(GroupNonUniformArithmetic, ClusterOfTheSubGroupSizeIsFine) {
  std::vector<int32_t> a(32), out(32, 0);
  for (size_t i = 0; i < a.size(); ++i) a[i] = int32_t(i);
  NDRange range = testing::makeRange(1, {32, 1, 1}, {32, 1, 1});
  LaunchResult r = testing::runRange(clusterProgram(), "k", range, 16, a, out);
  EXPECT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ(out[0], 0 + 2 + 4 + 6 + 8 + 10 + 12 + 14);
  EXPECT_EQ(out[16], 16 + 18 + 20 + 22 + 24 + 26 + 28 + 30);
  EXPECT_EQ(out[1], 0);  // inactive lanes store nothing
}

}  // namespace
}  // namespace spvsim
