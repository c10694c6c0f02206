// Uniform group collectives end to end: cl_khr_subgroups and cl_khr_subgroup_extended_types
// (sub_group_reduce/scan/broadcast/all/any), the OpenCL 2.0 work-group functions, and the
// SPV_KHR_uniform_group_instructions arithmetic (hand-written SPIR-V: OpenCL C 3.0 has no
// builtins for it), at sub-group sizes 4..64 over every rangeCases() shape. Expected
// values come from a host model over the partition of subgroup_test_util.h: sub-groups
// in lane order, work-groups in linear local id order.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "spirv/loader.h"
#include "src/exec/ops/subgroup_test_util.h"

namespace spvsim {
namespace {

using testing::partitionSubGroups;
using testing::rangeCases;
using testing::subGroupSizes;

template <class T>
constexpr bool kIsInt = std::is_integral_v<T>;

// ---- Host model ------------------------------------------------------------------

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
    if (std::isnan(double(a))) return b;
    if (std::isnan(double(b))) return a;
    if (op == "min") return b < a ? b : a;
    return a < b ? b : a;
  }
}

// reduce / scan_inclusive / scan_exclusive of `values` (group order) at position p.
template <class T>
T hostCollective(const std::string& op, const std::string& operation, const std::vector<T>& values,
                 size_t p) {
  const size_t end = operation == "reduce"           ? values.size()
                     : operation == "scan_inclusive" ? p + 1
                                                     : p;
  if (end == 0) return hostIdentity<T>(op);
  T acc = values[0];
  for (size_t k = 1; k < end; ++k) acc = hostApply(op, acc, values[k]);
  if (op.rfind("logical_", 0) == 0) acc = T(acc != 0);
  return acc;
}

// A work-group of the partition: its work-items in linear local id order and its actual
// local size.
struct WorkGroupModel {
  std::vector<uint64_t> items;
  std::array<uint64_t, 3> size{1, 1, 1};
};

std::vector<WorkGroupModel> workGroups(const NDRange& r, uint32_t width) {
  std::map<uint64_t, WorkGroupModel> groups;
  for (const auto& sg : partitionSubGroups(r, width)) {
    auto& g = groups[sg.workGroup];
    g.items.insert(g.items.end(), sg.items.begin(), sg.items.end());
  }
  std::array<uint64_t, 3> count;
  for (int d = 0; d < 3; ++d) count[d] = (r.global[d] + r.local[d] - 1) / r.local[d];
  std::vector<WorkGroupModel> out;
  for (auto& [linear, g] : groups) {
    const std::array<uint64_t, 3> id{linear % count[0], linear / count[0] % count[1],
                                     linear / (count[0] * count[1])};
    for (int d = 0; d < 3; ++d) g.size[d] = std::min(r.local[d], r.global[d] - id[d] * r.local[d]);
    out.push_back(std::move(g));
  }
  return out;
}

uint32_t mix(uint64_t i) { return uint32_t((i * 2654435761u) >> 7); }

// Small values (negative ones large in the unsigned types); floats in halves, so sums
// of a whole work-group stay exact even in half.
template <class T>
std::vector<T> inputs(size_t n) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    const int k = int(mix(i) % 33) - 16;
    v[i] = kIsInt<T> ? T(k / 2) : T(float(k) / 2);
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

// Compares element by element; reports the first few differences with `name(e)`.
template <class T, class Name>
void compare(const std::vector<T>& expected, const std::vector<T>& actual, const std::string& where,
             Name name) {
  int failures = 0;
  for (size_t e = 0; e < expected.size() && failures < 5; ++e)
    if (!same(expected[e], actual[e])) {
      ++failures;
      ADD_FAILURE() << where << ": " << name(e) << ": expected " << printable(expected[e])
                    << ", got " << printable(actual[e]);
    }
}

std::string whereOf(const std::string& kernel, uint32_t width, const char* range) {
  return kernel + " at sub-group size " + std::to_string(width) + ", range " + range;
}

// ---- OpenCL C: reductions, scans, broadcasts, votes --------------------------------

// One output: `scope`_<operation>_<op>(x), a broadcast, or a vote.
struct Slot {
  enum Kind { Arithmetic, SubBroadcast, WorkBroadcast, Vote } kind;
  bool workGroup = false;
  std::string op, operation;  // Arithmetic: add/min/max, reduce/scan_*; Vote: all/any
  int form = 0;               // which broadcast id (see broadcastCall) or vote predicate
};

std::vector<Slot> slotsFor(bool workGroupFunctions, bool votes) {
  std::vector<Slot> slots;
  for (bool wg : {false, true}) {
    if (wg && !workGroupFunctions) continue;
    for (const char* op : {"add", "min", "max"})
      for (const char* operation : {"reduce", "scan_inclusive", "scan_exclusive"})
        slots.push_back({Slot::Arithmetic, wg, op, operation});
    for (int form = 0; form < 3; ++form)
      slots.push_back({wg ? Slot::WorkBroadcast : Slot::SubBroadcast, wg, "", "", form});
    if (votes)
      for (const char* vote : {"all", "any"}) slots.push_back({Slot::Vote, wg, vote, ""});
  }
  return slots;
}

// The uniform ids: sub-group lanes 0, size - 1 and 5 % size; work-items (Lx - 1),
// (Lx / 2, Ly - 1) and (1 % Lx, Ly / 2, Lz - 1) of the actual local size.
std::string broadcastCall(const Slot& s) {
  if (!s.workGroup) {
    const char* ids[] = {"0", "n - 1", "5 % n"};
    return "sub_group_broadcast(x, " + std::string(ids[s.form]) + ")";
  }
  const char* ids[] = {"lx - 1", "lx / 2, ly - 1", "1 % lx, ly / 2, lz - 1"};
  return "work_group_broadcast(x, " + std::string(ids[s.form]) + ")";
}

std::string kernelSource(const std::string& name, const std::string& type,
                         const std::vector<Slot>& slots) {
  std::string s = "kernel void " + name + "(global const " + type + "* a, global " + type +
                  "* out) {\n"
                  "  size_t i = get_global_linear_id();\n"
                  "  size_t lx = get_local_size(0), ly = get_local_size(1), lz = "
                  "get_local_size(2);\n"
                  "  uint n = get_sub_group_size();\n  " +
                  type + " x = a[i];\n  global " + type + "* o = out + i * " +
                  std::to_string(slots.size()) + ";\n";
  for (size_t k = 0; k < slots.size(); ++k) {
    const Slot& slot = slots[k];
    const std::string prefix = slot.workGroup ? "work_group_" : "sub_group_";
    std::string call;
    if (slot.kind == Slot::Arithmetic)
      call = prefix + slot.operation + "_" + slot.op + "(x)";
    else if (slot.kind == Slot::Vote)
      call = prefix + slot.op + (slot.op == "all" ? "(x > -8)" : "(x == 3)");
    else
      call = broadcastCall(slot);
    s += "  o[" + std::to_string(k) + "] = " + call + ";\n";
  }
  return s + "}\n";
}

// Every type: sub-group functions (cl_khr_subgroup_extended_types adds char..ushort);
// work-group functions exist for int, uint, long, ulong, half, float, double.
struct TypeCase {
  const char* name;
  bool workGroup;
};
const TypeCase kTypes[] = {{"char", false}, {"uchar", false}, {"short", false}, {"ushort", false},
                           {"int", true},   {"uint", true},   {"long", true},   {"ulong", true},
                           {"half", true},  {"float", true},  {"double", true}};

const uint32_t kVectorSizes[] = {1, 2, 3, 4, 8, 16};

// sub_group_broadcast of scalars and vectors: in and out hold 16 elements a work-item
// per vector size, so every vector type is aligned.
std::string broadcastVectorKernel(const std::string& type) {
  std::string s = "kernel void bv_" + type + "(global const " + type + "* a, global " + type +
                  "* out) {\n  size_t i = get_global_linear_id();\n"
                  "  uint n = get_sub_group_size();\n";
  const char* ids[] = {"n / 2", "n - 1", "0", "3 % n", "n - 1", "n / 3"};
  for (size_t v = 0; v < 6; ++v) {
    const std::string vt = kVectorSizes[v] == 1 ? type : type + std::to_string(kVectorSizes[v]);
    s += "  *(global " + vt + "*)(out + i * 96 + " + std::to_string(16 * v) +
         ") = sub_group_broadcast(*(global const " + vt + "*)(a + i * 16), " + ids[v] + ");\n";
  }
  return s + "}\n";
}
uint32_t vectorBroadcastLane(size_t v, uint32_t n) {
  const uint32_t ids[] = {n / 2, n - 1, 0, 3 % n, n - 1, n / 3};
  return ids[v];
}

Program& program() {
  static const std::shared_ptr<Program> p = [] {
    std::string source =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    for (const auto& t : kTypes) {
      const bool votes = std::string(t.name) == "int";
      source += kernelSource(std::string("u_") + t.name, t.name, slotsFor(t.workGroup, votes));
      source += broadcastVectorKernel(t.name);
    }
    return testing::loadOpenCl(source, "uniform collective kernels");
  }();
  return *p;
}

template <class T>
std::vector<T> modelKernel(const std::vector<Slot>& slots, const NDRange& range, uint32_t width,
                           const std::vector<T>& a) {
  const size_t K = slots.size();
  std::vector<T> out(a.size() * K, T(0));
  auto predicate = [&](const Slot& s, uint64_t item) {
    return s.op == "all" ? a[item] > T(-8) : a[item] == T(3);
  };
  auto vote = [&](const Slot& s, const std::vector<uint64_t>& items) {
    bool all = true, any = false;
    for (uint64_t item : items) {
      all = all && predicate(s, item);
      any = any || predicate(s, item);
    }
    return T(s.op == "all" ? all : any);
  };
  auto valuesOf = [&](const std::vector<uint64_t>& items) {
    std::vector<T> v;
    for (uint64_t item : items) v.push_back(a[item]);
    return v;
  };
  for (const auto& sg : partitionSubGroups(range, width)) {
    const std::vector<T> values = valuesOf(sg.items);
    const uint32_t n = uint32_t(sg.items.size());
    for (uint32_t l = 0; l < n; ++l)
      for (size_t k = 0; k < K; ++k) {
        const Slot& s = slots[k];
        if (s.workGroup) continue;
        T& e = out[sg.items[l] * K + k];
        if (s.kind == Slot::Arithmetic) e = hostCollective(s.op, s.operation, values, l);
        if (s.kind == Slot::Vote) e = vote(s, sg.items);
        if (s.kind == Slot::SubBroadcast) {
          const uint32_t ids[] = {0, n - 1, 5 % n};
          e = values[ids[s.form]];
        }
      }
  }
  for (const auto& g : workGroups(range, width)) {
    const std::vector<T> values = valuesOf(g.items);
    const auto& L = g.size;
    const std::array<uint64_t, 3> ids[] = {
        {L[0] - 1, 0, 0}, {L[0] / 2, L[1] - 1, 0}, {1 % L[0], L[1] / 2, L[2] - 1}};
    for (size_t p = 0; p < g.items.size(); ++p)
      for (size_t k = 0; k < K; ++k) {
        const Slot& s = slots[k];
        if (!s.workGroup) continue;
        T& e = out[g.items[p] * K + k];
        if (s.kind == Slot::Arithmetic) e = hostCollective(s.op, s.operation, values, p);
        if (s.kind == Slot::Vote) e = vote(s, g.items);
        if (s.kind == Slot::WorkBroadcast) {
          const auto& id = ids[s.form];
          e = values[id[0] + id[1] * L[0] + id[2] * L[0] * L[1]];
        }
      }
  }
  return out;
}

template <class T>
void checkType(const char* type, bool workGroup) {
  const std::string kernel = std::string("u_") + type;
  const auto slots = slotsFor(workGroup, std::string(type) == "int");
  for (uint32_t width : subGroupSizes())
    for (const auto& rc : rangeCases()) {
      const size_t n = testing::globalItems(rc.range);
      std::vector<T> a = inputs<T>(n), out(n * slots.size(), T(0));
      LaunchResult r = testing::runRange(program(), kernel, rc.range, width, a, out);
      const std::string where = whereOf(kernel, width, rc.name);
      EXPECT_TRUE(r.diagnostics.empty()) << where << "\n" << testing::describe(r);
      compare(modelKernel(slots, rc.range, width, a), out, where, [&](size_t e) {
        const Slot& s = slots[e % slots.size()];
        std::ostringstream o;
        o << "work-item " << e / slots.size() << " slot " << e % slots.size() << " ("
          << (s.workGroup ? "work_group " : "sub_group ") << s.op << " " << s.operation << " "
          << s.form << ")";
        return o.str();
      });
    }
}

TEST(GroupUniform, Char) { checkType<int8_t>("char", false); }
TEST(GroupUniform, Uchar) { checkType<uint8_t>("uchar", false); }
TEST(GroupUniform, Short) { checkType<int16_t>("short", false); }
TEST(GroupUniform, Ushort) { checkType<uint16_t>("ushort", false); }
TEST(GroupUniform, Int) { checkType<int32_t>("int", true); }
TEST(GroupUniform, Uint) { checkType<uint32_t>("uint", true); }
TEST(GroupUniform, Long) { checkType<int64_t>("long", true); }
TEST(GroupUniform, Ulong) { checkType<uint64_t>("ulong", true); }
TEST(GroupUniform, Half) { checkType<_Float16>("half", true); }
TEST(GroupUniform, Float) { checkType<float>("float", true); }
TEST(GroupUniform, Double) { checkType<double>("double", true); }

template <class T>
void checkVectorBroadcast(const char* type) {
  const std::string kernel = std::string("bv_") + type;
  for (uint32_t width : subGroupSizes())
    for (const auto& rc : rangeCases()) {
      const size_t n = testing::globalItems(rc.range);
      std::vector<T> a(n * 16), out(n * 96, T(0));
      for (size_t e = 0; e < a.size(); ++e) a[e] = T(int(mix(e) % 100) - 50);
      LaunchResult r = testing::runRange(program(), kernel, rc.range, width, a, out);
      const std::string where = whereOf(kernel, width, rc.name);
      EXPECT_TRUE(r.diagnostics.empty()) << where << "\n" << testing::describe(r);
      // Elements past each vector stay 0; the vec3 padding element is undefined.
      std::vector<T> expected(out.size(), T(0));
      for (const auto& sg : partitionSubGroups(rc.range, width))
        for (uint32_t l = 0; l < sg.items.size(); ++l)
          for (size_t v = 0; v < 6; ++v) {
            const uint64_t src = sg.items[vectorBroadcastLane(v, uint32_t(sg.items.size()))];
            const size_t at = sg.items[l] * 96 + 16 * v;
            for (uint32_t c = 0; c < kVectorSizes[v]; ++c) expected[at + c] = a[src * 16 + c];
            if (kVectorSizes[v] == 3) expected[at + 3] = out[at + 3];
          }
      compare(expected, out, where, [&](size_t e) {
        return "work-item " + std::to_string(e / 96) + " vector size " +
               std::to_string(kVectorSizes[e % 96 / 16]) + " component " + std::to_string(e % 16);
      });
    }
}

TEST(GroupUniform, BroadcastVectorsChar) { checkVectorBroadcast<int8_t>("char"); }
TEST(GroupUniform, BroadcastVectorsUchar) { checkVectorBroadcast<uint8_t>("uchar"); }
TEST(GroupUniform, BroadcastVectorsShort) { checkVectorBroadcast<int16_t>("short"); }
TEST(GroupUniform, BroadcastVectorsUshort) { checkVectorBroadcast<uint16_t>("ushort"); }
TEST(GroupUniform, BroadcastVectorsInt) { checkVectorBroadcast<int32_t>("int"); }
TEST(GroupUniform, BroadcastVectorsUint) { checkVectorBroadcast<uint32_t>("uint"); }
TEST(GroupUniform, BroadcastVectorsLong) { checkVectorBroadcast<int64_t>("long"); }
TEST(GroupUniform, BroadcastVectorsUlong) { checkVectorBroadcast<uint64_t>("ulong"); }
TEST(GroupUniform, BroadcastVectorsHalf) { checkVectorBroadcast<_Float16>("half"); }
TEST(GroupUniform, BroadcastVectorsFloat) { checkVectorBroadcast<float>("float"); }
TEST(GroupUniform, BroadcastVectorsDouble) { checkVectorBroadcast<double>("double"); }

// ---- SPV_KHR_uniform_group_instructions and vectors: hand-written SPIR-V -----------

struct AsmSlot {
  const char* opcode;
  bool workGroup;
  const char* operation;  // reduce, scan_inclusive, scan_exclusive
  const char* hostOp;
};

const char* spirvOperation(const std::string& operation) {
  return operation == "reduce"           ? "Reduce"
         : operation == "scan_inclusive" ? "InclusiveScan"
                                         : "ExclusiveScan";
}

// Each op at both scopes with all three GroupOperations.
std::vector<AsmSlot> asmSlots(const std::vector<std::pair<const char*, const char*>>& ops) {
  std::vector<AsmSlot> slots;
  for (const auto& [opcode, hostOp] : ops)
    for (bool wg : {false, true})
      for (const char* operation : {"reduce", "scan_inclusive", "scan_exclusive"})
        slots.push_back({opcode, wg, operation, hostOp});
  return slots;
}

// A kernel k(in, out): out[i * K + k] = slot k applied to in[i]. The value type is
// `elementDecl` (a vector of `components` when > 1); `boolean` applies the ops to
// in[i] != 0 and stores 0 or 1.
std::string asmModule(const std::string& elementDecl, const std::vector<std::string>& caps,
                      uint32_t components, bool boolean, const std::vector<AsmSlot>& slots) {
  std::string s;
  for (const auto& c : caps) s += "OpCapability " + c + "\n";
  s += R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Groups
OpCapability GroupUniformArithmeticKHR
OpExtension "SPV_KHR_uniform_group_instructions"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid
OpDecorate %gid BuiltIn GlobalLinearId
OpDecorate %gid Constant
%ulong = OpTypeInt 64 0
%uint = OpTypeInt 32 0
)";
  // SPIR-V forbids declaring a scalar type twice.
  std::string element = elementDecl == "OpTypeInt 64 0"   ? "%ulong"
                        : elementDecl == "OpTypeInt 32 0" ? "%uint"
                                                          : "%E";
  if (element == "%E") s += "%E = " + elementDecl + "\n";
  if (components > 1) s += "%T = OpTypeVector " + element + " " + std::to_string(components) + "\n";
  const std::string T = components > 1 ? "%T" : element;
  s += "%bool = OpTypeBool\n%void = OpTypeVoid\n%ptr_in = OpTypePointer Input %ulong\n"
       "%ptr_T = OpTypePointer CrossWorkgroup " +
       T + "\n%fn = OpTypeFunction %void %ptr_T %ptr_T\n%gid = OpVariable %ptr_in Input\n" +
       "%subgroup = OpConstant %uint 3\n%workgroup = OpConstant %uint 2\n" +
       "%K = OpConstant %ulong " + std::to_string(slots.size()) + "\n";
  if (boolean) s += "%zero = OpConstant " + T + " 0\n%one = OpConstant " + T + " 1\n";
  for (size_t k = 0; k < slots.size(); ++k)
    s += "%c" + std::to_string(k) + " = OpConstant %ulong " + std::to_string(k) + "\n";
  s += "%k = OpFunction %void None %fn\n%in = OpFunctionParameter %ptr_T\n"
       "%out = OpFunctionParameter %ptr_T\n%entry = OpLabel\n%i = OpLoad %ulong %gid\n"
       "%pin = OpInBoundsPtrAccessChain %ptr_T %in %i\n%x = OpLoad " +
       T + " %pin\n%base = OpIMul %ulong %i %K\n";
  if (boolean) s += "%b = OpINotEqual %bool %x %zero\n";
  for (size_t k = 0; k < slots.size(); ++k) {
    const std::string n = std::to_string(k);
    const AsmSlot& slot = slots[k];
    s += "%r" + n + " = " + slot.opcode + " " + (boolean ? "%bool" : T) + " " +
         (slot.workGroup ? "%workgroup " : "%subgroup ") + spirvOperation(slot.operation) +
         (boolean ? " %b\n" : " %x\n");
    std::string value = "%r" + n;
    if (boolean) {
      s += "%s" + n + " = OpSelect " + T + " %r" + n + " %one %zero\n";
      value = "%s" + n;
    }
    s += "%idx" + n + " = OpIAdd %ulong %base %c" + n + "\n%p" + n +
         " = OpInBoundsPtrAccessChain %ptr_T %out %idx" + n + "\nOpStore %p" + n + " " + value +
         "\n";
  }
  return s + "OpReturn\nOpFunctionEnd\n";
}

// Expected output of asmModule's kernel: per component, over the sub-group or the
// work-group in order. vec3 padding elements are taken from `actual`.
template <class T>
std::vector<T> modelAsm(const std::vector<AsmSlot>& slots, const NDRange& range, uint32_t width,
                        const std::vector<T>& a, uint32_t components, bool boolean,
                        const std::vector<T>& actual) {
  const size_t K = slots.size();
  const uint32_t stride = components == 3 ? 4 : components;
  std::vector<T> out = actual;
  auto fill = [&](const std::vector<uint64_t>& items, bool workGroup) {
    for (uint32_t c = 0; c < components; ++c) {
      std::vector<T> values;
      for (uint64_t item : items) {
        const T v = a[item * stride + c];
        values.push_back(boolean ? T(v != T(0)) : v);
      }
      for (size_t p = 0; p < items.size(); ++p)
        for (size_t k = 0; k < K; ++k)
          if (slots[k].workGroup == workGroup)
            out[(items[p] * K + k) * stride + c] =
                hostCollective(slots[k].hostOp, slots[k].operation, values, p);
    }
  };
  for (const auto& sg : partitionSubGroups(range, width)) fill(sg.items, false);
  for (const auto& g : workGroups(range, width)) fill(g.items, true);
  return out;
}

template <class T>
void checkAsm(const std::string& name, const std::string& elementDecl,
              const std::vector<std::string>& caps, uint32_t components, bool boolean,
              const std::vector<AsmSlot>& slots, T (*value)(uint64_t)) {
  auto p = Program::load(spirv::assemble(asmModule(elementDecl, caps, components, boolean, slots)));
  const uint32_t stride = components == 3 ? 4 : components;
  for (uint32_t width : subGroupSizes())
    for (const auto& rc : rangeCases()) {
      const size_t n = testing::globalItems(rc.range);
      std::vector<T> a(n * stride), out(n * slots.size() * stride, T(0));
      for (size_t e = 0; e < a.size(); ++e) a[e] = value(e);
      LaunchResult r = testing::runRange(*p, "k", rc.range, width, a, out);
      const std::string where = whereOf(name, width, rc.name);
      EXPECT_TRUE(r.diagnostics.empty()) << where << "\n" << testing::describe(r);
      compare(modelAsm(slots, rc.range, width, a, components, boolean, out), out, where,
              [&](size_t e) {
                const AsmSlot& s = slots[e / stride % slots.size()];
                return "work-item " + std::to_string(e / stride / slots.size()) + " " + s.opcode +
                       (s.workGroup ? " Workgroup " : " Subgroup ") + s.operation + " component " +
                       std::to_string(e % stride);
              });
    }
}

template <class T>
T randomBits(uint64_t e) {
  return T(uint64_t(mix(e)) * 0x9E3779B97F4A7C15ull);
}
// Powers of two and their negatives: every product and sum is exact.
template <class T>
T exactFloat(uint64_t e) {
  const float v[] = {1.0f, -1.0f, 2.0f, 0.5f, 1.0f};
  return T(v[mix(e) % 5]);
}
template <class T>
T mostlyTrue(uint64_t e) {
  return T(mix(e) % 9 == 0 ? 0 : mix(e) % 3 + 1);
}

const std::vector<std::pair<const char*, const char*>> kIntegerKhrOps = {
    {"OpGroupIMulKHR", "mul"},       {"OpGroupBitwiseAndKHR", "and"}, {"OpGroupBitwiseOrKHR", "or"},
    {"OpGroupBitwiseXorKHR", "xor"}, {"OpGroupIAdd", "add"},          {"OpGroupUMax", "max"}};
const std::vector<std::pair<const char*, const char*>> kFloatKhrOps = {
    {"OpGroupFMulKHR", "mul"}, {"OpGroupFAdd", "add"}, {"OpGroupFMin", "min"}};

TEST(GroupUniform, KhrIntegerUchar) {
  checkAsm<uint8_t>("uchar KHR ops", "OpTypeInt 8 0", {"Int8"}, 1, false, asmSlots(kIntegerKhrOps),
                    &randomBits<uint8_t>);
}
TEST(GroupUniform, KhrIntegerUshort) {
  checkAsm<uint16_t>("ushort KHR ops", "OpTypeInt 16 0", {"Int16"}, 1, false,
                     asmSlots(kIntegerKhrOps), &randomBits<uint16_t>);
}
TEST(GroupUniform, KhrIntegerUint) {
  checkAsm<uint32_t>("uint KHR ops", "OpTypeInt 32 0", {}, 1, false, asmSlots(kIntegerKhrOps),
                     &randomBits<uint32_t>);
}
TEST(GroupUniform, KhrIntegerUlong) {
  checkAsm<uint64_t>("ulong KHR ops", "OpTypeInt 64 0", {}, 1, false, asmSlots(kIntegerKhrOps),
                     &randomBits<uint64_t>);
}
TEST(GroupUniform, KhrHalf) {
  checkAsm<_Float16>("half KHR ops", "OpTypeFloat 16", {"Float16"}, 1, false,
                     asmSlots(kFloatKhrOps), &exactFloat<_Float16>);
}
TEST(GroupUniform, KhrFloat) {
  checkAsm<float>("float KHR ops", "OpTypeFloat 32", {}, 1, false, asmSlots(kFloatKhrOps),
                  &exactFloat<float>);
}
TEST(GroupUniform, KhrDouble) {
  checkAsm<double>("double KHR ops", "OpTypeFloat 64", {"Float64"}, 1, false,
                   asmSlots(kFloatKhrOps), &exactFloat<double>);
}
TEST(GroupUniform, KhrLogical) {
  checkAsm<uint32_t>("logical KHR ops", "OpTypeInt 32 0", {}, 1, true,
                     asmSlots({{"OpGroupLogicalAndKHR", "logical_and"},
                               {"OpGroupLogicalOrKHR", "logical_or"},
                               {"OpGroupLogicalXorKHR", "logical_xor"}}),
                     &mostlyTrue<uint32_t>);
}

// SPIR-V allows vectors for the arithmetic: each component on its own (vec3: stride 4).
TEST(GroupUniform, VectorsComponentwise) {
  checkAsm<uint32_t>("uint3", "OpTypeInt 32 0", {}, 3, false,
                     asmSlots({{"OpGroupIAdd", "add"}, {"OpGroupBitwiseXorKHR", "xor"}}),
                     &randomBits<uint32_t>);
  checkAsm<float>("float2", "OpTypeFloat 32", {}, 2, false,
                  asmSlots({{"OpGroupFMax", "max"}, {"OpGroupFMulKHR", "mul"}}),
                  &exactFloat<float>);
  checkAsm<int16_t>("short4", "OpTypeInt 16 0", {"Int16"}, 4, false,
                    asmSlots({{"OpGroupSMin", "min"}}), &randomBits<int16_t>);
}

// ---- Diagnostics ------------------------------------------------------------------

Program& diagnosticsProgram() {
  static const std::shared_ptr<Program> p = testing::loadOpenCl(R"(
#define I size_t i = get_global_linear_id(); uint lid = get_sub_group_local_id();
kernel void partial_reduce(global const int* a, global int* out) {
  I if (lid < 3) out[i] = sub_group_reduce_add(a[i]);
}
kernel void partial_vote(global const int* a, global int* out) {
  I if (lid < 3) out[i] = sub_group_any(a[i] == 2) + 2 * sub_group_all(a[i] < 3);
}
kernel void partial_broadcast(global const int* a, global int* out) {
  I if (lid < 3) out[i] = sub_group_broadcast(a[i], 1);
}
kernel void broadcast_inactive(global const int* a, global int* out) {
  I if (lid < 3) out[i] = sub_group_broadcast(a[i], 5);
}
kernel void partial_work_group(global const int* a, global int* out) {
  I if (get_local_linear_id() < 3) out[i] = work_group_reduce_add(a[i]);
}
kernel void work_group_vs_barrier(global const int* a, global int* out) {
  I if (get_sub_group_id() == 0) out[i] = work_group_reduce_add(a[i]);
  else barrier(CLK_GLOBAL_MEM_FENCE);
}
kernel void work_group_vs_exit(global const int* a, global int* out) {
  I if (get_sub_group_id() == 0) out[i] = work_group_scan_inclusive_max(a[i]);
}
kernel void varying_id(global const int* a, global int* out) {
  I out[i] = sub_group_broadcast(a[i], lid / 2);
}
kernel void varying_work_group_id(global const int* a, global int* out) {
  I out[i] = work_group_broadcast(a[i], get_local_id(0) % 2);
}
kernel void last_lane(global const int* a, global int* out) {
  I out[i] = sub_group_broadcast(a[i], get_max_sub_group_size() - 1);
}
kernel void last_enqueued_item(global const int* a, global int* out) {
  I out[i] = work_group_broadcast(a[i], get_enqueued_local_size(0) - 1);
}
kernel void beyond_y(global const int* a, global int* out) {
  I out[i] = work_group_broadcast(a[i], 0, get_local_size(1));
}
)",
                                                                "diagnostic kernels");
  return *p;
}

struct DiagnosticRun {
  LaunchResult result;
  std::vector<int32_t> a, out;
};

// a[i] = i + 1; out starts at -1.
DiagnosticRun runDiagnostic(const std::string& kernel, const NDRange& range, uint32_t width) {
  DiagnosticRun run;
  const size_t n = testing::globalItems(range);
  run.a.resize(n);
  for (size_t i = 0; i < n; ++i) run.a[i] = int32_t(i + 1);
  run.out.assign(n, -1);
  run.result = testing::runRange(diagnosticsProgram(), kernel, range, width, run.a, run.out);
  return run;
}

const Diagnostic* findKind(const LaunchResult& r, const std::string& kind) {
  for (const auto& d : r.diagnostics)
    if (kindName(d.kind) == kind) return &d;
  return nullptr;
}

std::vector<uint32_t> laneRange(uint32_t first, uint32_t end) {
  std::vector<uint32_t> v;
  for (uint32_t l = first; l < end; ++l) v.push_back(l);
  return v;
}

const NDRange kOneGroup16 = testing::makeRange(1, {16, 1, 1}, {16, 1, 1});

// A sub-group collective reached by lanes 0..2 only: an error naming them; the
// operation still runs over them so later results stay meaningful.
TEST(GroupUniformDiagnostics, PartialSubGroupReduce) {
  DiagnosticRun run = runDiagnostic("partial_reduce", kOneGroup16, 8);
  ASSERT_EQ(run.result.diagnostics.size(), 1u) << testing::describe(run.result);
  const Diagnostic& d = run.result.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::NonUniformCollective);
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.lanes, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(d.repeats, 1u);  // the second sub-group
  EXPECT_NE(d.message.find("3 of the sub-group's 8 lanes"), std::string::npos) << d.message;
  EXPECT_EQ(run.out[0], 1 + 2 + 3);
  EXPECT_EQ(run.out[10], 9 + 10 + 11);
  EXPECT_EQ(run.out[3], -1);
}

TEST(GroupUniformDiagnostics, PartialSubGroupVoteAndBroadcast) {
  DiagnosticRun vote = runDiagnostic("partial_vote", kOneGroup16, 8);
  ASSERT_NE(findKind(vote.result, "non-uniform-collective"), nullptr)
      << testing::describe(vote.result);
  EXPECT_EQ(findKind(vote.result, "non-uniform-collective")->lanes,
            (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(vote.out[0], 1 + 0);  // a = 1, 2, 3: any(== 2), not all(< 3)
  EXPECT_EQ(vote.out[8], 0 + 0);  // a = 9, 10, 11

  DiagnosticRun broadcast = runDiagnostic("partial_broadcast", kOneGroup16, 8);
  ASSERT_EQ(broadcast.result.diagnostics.size(), 1u) << testing::describe(broadcast.result);
  EXPECT_EQ(broadcast.result.diagnostics[0].kind, DiagnosticKind::NonUniformCollective);
  EXPECT_EQ(broadcast.out[2], 2);
  EXPECT_EQ(broadcast.out[9], 10);
}

// Lane 5 did not reach the broadcast: its value is undefined (a warning, result 0).
TEST(GroupUniformDiagnostics, BroadcastFromInactiveLane) {
  DiagnosticRun run = runDiagnostic("broadcast_inactive", kOneGroup16, 8);
  const Diagnostic* d = findKind(run.result, "inactive-lane-read");
  ASSERT_NE(d, nullptr) << testing::describe(run.result);
  EXPECT_EQ(d->severity, Severity::Warning);
  EXPECT_EQ(d->lanes, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_NE(d->message.find("lane 5"), std::string::npos) << d->message;
  EXPECT_NE(findKind(run.result, "non-uniform-collective"), nullptr);
  EXPECT_EQ(run.out[0], 0);
}

// A work-group collective reached by part of a sub-group: the others can never arrive,
// so the work-group stops with an error.
TEST(GroupUniformDiagnostics, PartialWorkGroupCollective) {
  DiagnosticRun run = runDiagnostic("partial_work_group", kOneGroup16, 8);
  const Diagnostic* d = findKind(run.result, "non-uniform-collective");
  ASSERT_NE(d, nullptr) << testing::describe(run.result);
  EXPECT_EQ(d->severity, Severity::Error);
  EXPECT_EQ(d->lanes, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_TRUE(run.result.aborted);
}

// Sub-group 0 waits at a work-group collective while the others wait at a barrier or
// have finished: the scheduler reports barrier divergence.
TEST(GroupUniformDiagnostics, WorkGroupCollectiveNotReachedByAllSubGroups) {
  for (const char* kernel : {"work_group_vs_barrier", "work_group_vs_exit"}) {
    DiagnosticRun run = runDiagnostic(kernel, kOneGroup16, 4);
    const Diagnostic* d = findKind(run.result, "barrier-divergence");
    ASSERT_NE(d, nullptr) << kernel << "\n" << testing::describe(run.result);
    EXPECT_EQ(d->severity, Severity::Error) << kernel;
    EXPECT_TRUE(run.result.aborted) << kernel;
    EXPECT_EQ(run.out[0], -1) << kernel;  // the collective never completed
  }
}

// The broadcast id must be uniform: the lanes whose id differs from the first active
// lane's are named, and that lane's id is used.
TEST(GroupUniformDiagnostics, NonUniformSubGroupBroadcastId) {
  DiagnosticRun run = runDiagnostic("varying_id", kOneGroup16, 8);
  ASSERT_EQ(run.result.diagnostics.size(), 1u) << testing::describe(run.result);
  const Diagnostic& d = run.result.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::NonUniformArgument);
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.lanes, laneRange(2, 8));
  EXPECT_EQ(run.out[7], 1);
  EXPECT_EQ(run.out[15], 9);
}

TEST(GroupUniformDiagnostics, NonUniformWorkGroupBroadcastId) {
  DiagnosticRun run = runDiagnostic("varying_work_group_id", kOneGroup16, 4);
  ASSERT_EQ(run.result.diagnostics.size(), 1u) << testing::describe(run.result);
  const Diagnostic& d = run.result.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::NonUniformArgument);
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.lanes, (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(d.repeats, 3u);  // sub-groups 1..3
  EXPECT_EQ(run.out[15], 1);
}

// Lane 7 exists in the full sub-groups only: the partial last one (6 lanes) reads
// nothing (a warning, result 0); the full ones are right and not reported.
TEST(GroupUniformDiagnostics, SubGroupBroadcastBeyondPartialSubGroup) {
  const NDRange range = rangeCases()[0].range;  // 2 work-groups of 70: 8 x 8 + 6
  DiagnosticRun run = runDiagnostic("last_lane", range, 8);
  ASSERT_EQ(run.result.diagnostics.size(), 1u) << testing::describe(run.result);
  const Diagnostic& d = run.result.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::ShuffleOutOfRange);
  EXPECT_EQ(d.severity, Severity::Warning);
  EXPECT_EQ(d.lanes, laneRange(0, 6));
  EXPECT_EQ(d.subGroup, 8u);
  EXPECT_EQ(d.repeats, 1u);  // the second work-group
  EXPECT_NE(d.message.find("reads lane 7, but the sub-group has 6 lanes"), std::string::npos)
      << d.message;
  EXPECT_FALSE(hasErrors(run.result.diagnostics));
  EXPECT_EQ(run.out[0], 8);
  EXPECT_EQ(run.out[63], 64);
  EXPECT_EQ(run.out[64], 0);
  EXPECT_EQ(run.out[69], 0);
}

// The last work-group of 1d-nonuniform has 10 work-items: id 69 names none of them.
TEST(GroupUniformDiagnostics, WorkGroupBroadcastBeyondSmallerLastGroup) {
  const NDRange range = rangeCases()[1].range;  // 150 = 70 + 70 + 10
  DiagnosticRun run = runDiagnostic("last_enqueued_item", range, 16);
  ASSERT_EQ(run.result.diagnostics.size(), 1u) << testing::describe(run.result);
  const Diagnostic& d = run.result.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::ShuffleOutOfRange);
  EXPECT_EQ(d.severity, Severity::Warning);
  EXPECT_EQ((*d.workGroup)[0], 2u);
  EXPECT_NE(d.message.find("local id 69"), std::string::npos) << d.message;
  EXPECT_EQ(run.out[0], 70);
  EXPECT_EQ(run.out[139], 140);
  EXPECT_EQ(run.out[140], 0);
  EXPECT_EQ(run.out[149], 0);

  DiagnosticRun beyond = runDiagnostic("beyond_y", rangeCases()[2].range, 8);
  const Diagnostic* y = findKind(beyond.result, "shuffle-out-of-range");
  ASSERT_NE(y, nullptr) << testing::describe(beyond.result);
  EXPECT_NE(y->message.find("(0, 7)"), std::string::npos) << y->message;
  EXPECT_EQ(beyond.out[0], 0);
}

}  // namespace
}  // namespace spvsim
