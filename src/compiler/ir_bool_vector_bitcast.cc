// expandBoolVectorBitcasts (src/compiler/ir_rewrites.h).
#include <fmt/format.h>

#include <charconv>

#include "src/compiler/ir_rewrites.h"
#include "src/compiler/llvm_ir.h"

namespace spvsim::compiler {
namespace {

// N of "<N x i1>", or 0.
unsigned boolLanes(std::string_view type) {
  constexpr std::string_view kSuffix = " x i1>";
  unsigned n = 0;
  if (type.size() <= kSuffix.size() + 1 || type.front() != '<' ||
      type.substr(type.size() - kSuffix.size()) != kSuffix)
    return 0;
  const char* end = type.data() + type.size() - kSuffix.size();
  const auto r = std::from_chars(type.data() + 1, end, n);
  return r.ptr == end ? n : 0;
}

// The multiplier that gathers bit 0 of byte i of an 8N-bit integer (bytes 0 or 1) into
// bit i of its top byte: byte j of it is 2^(N-1-j), so the top byte of the product is
// the sum of b_i 2^i, and no byte's partial sum reaches 256 to carry into the next.
uint64_t gatherMultiplier(unsigned n) {
  uint64_t m = 0;
  for (unsigned j = 0; j < n; ++j) m |= uint64_t(1) << (n - 1 - j) << (8 * j);
  return m;
}

// "%x = bitcast <N x i1> V to iN" for N = 2, 4, 8 in five instructions: the lanes as
// bytes 0/1 of one 8N-bit integer, gathered into its top byte by one multiplication.
std::vector<std::string> packByMultiply(std::string_view indent, std::string_view name, unsigned n,
                                        std::string_view vec, std::string_view md,
                                        const std::string& t) {
  const unsigned wide = 8 * n;
  return {
      fmt::format("{}{}.w = zext <{} x i1> {} to <{} x i8>{}", indent, t, n, vec, n, md),
      fmt::format("{}{}.b = bitcast <{} x i8> {}.w to i{}{}", indent, t, n, t, wide, md),
      fmt::format("{}{}.m = mul i{} {}.b, {}{}", indent, t, wide, t, gatherMultiplier(n), md),
      fmt::format("{}{}.s = lshr i{} {}.m, {}{}", indent, t, wide, t, wide - 8, md),
      fmt::format("{}{} = trunc i{} {}.s to i{}{}", indent, name, wide, t, n, md),
  };
}

// "%x = bitcast <N x i1> V to iN": the lanes packed into an integer, lane 0 lowest.
std::vector<std::string> pack(std::string_view indent, std::string_view name, unsigned n,
                              std::string_view vec, std::string_view md, const std::string& t) {
  std::vector<std::string> out;
  std::string acc;
  for (unsigned i = 0; i < n; ++i) {
    const std::string e = fmt::format("{}.l{}", t, i), z = fmt::format("{}.z{}", t, i);
    out.push_back(
        fmt::format("{}{} = extractelement <{} x i1> {}, i32 {}{}", indent, e, n, vec, i, md));
    out.push_back(fmt::format("{}{} = zext i1 {} to i{}{}", indent, z, e, n, md));
    std::string bit = z;
    if (i > 0) {
      bit = fmt::format("{}.s{}", t, i);
      out.push_back(fmt::format("{}{} = shl i{} {}, {}{}", indent, bit, n, z, i, md));
    }
    if (i == 0) {
      acc = bit;
      continue;
    }
    const std::string next = i + 1 == n ? std::string(name) : fmt::format("{}.o{}", t, i);
    out.push_back(fmt::format("{}{} = or i{} {}, {}{}", indent, next, n, acc, bit, md));
    acc = next;
  }
  return out;
}

// "%x = bitcast iN V to <N x i1>": lane i is bit i.
std::vector<std::string> unpack(std::string_view indent, std::string_view name, unsigned n,
                                std::string_view value, std::string_view md, const std::string& t) {
  std::vector<std::string> out;
  std::string acc = "poison";
  for (unsigned i = 0; i < n; ++i) {
    const std::string s = fmt::format("{}.s{}", t, i), b = fmt::format("{}.b{}", t, i);
    out.push_back(fmt::format("{}{} = lshr i{} {}, {}{}", indent, s, n, value, i, md));
    out.push_back(fmt::format("{}{} = trunc i{} {} to i1{}", indent, b, n, s, md));
    const std::string next = i + 1 == n ? std::string(name) : fmt::format("{}.v{}", t, i);
    out.push_back(fmt::format("{}{} = insertelement <{} x i1> {}, i1 {}, i32 {}{}", indent, next, n,
                              acc, b, i, md));
    acc = next;
  }
  return out;
}

std::vector<std::string> expand(const std::string& line, int serial) {
  const auto a = ir::parseAssignment(line);
  if (!a || a->rest.substr(0, 8) != "bitcast ") return {};
  const std::string_view md = ir::metadataSuffix(line);
  const std::string_view ops = a->rest.substr(8, a->rest.size() - 8 - md.size());
  const size_t to = ops.rfind(" to ");
  const size_t typeEnd = ir::typeLength(ops);
  if (to == std::string_view::npos || typeEnd == 0 || typeEnd >= to) return {};
  const std::string_view from = ops.substr(0, typeEnd),
                         value = ops.substr(typeEnd + 1, to - typeEnd - 1);
  const std::string_view target = ops.substr(to + 4);
  const std::string temp = fmt::format("%spvsim.bits.{}", serial);
  if (const unsigned n = boolLanes(from); n > 0 && n <= 64 && target == fmt::format("i{}", n))
    return n == 2 || n == 4 || n == 8 ? packByMultiply(a->indent, a->name, n, value, md, temp)
                                      : pack(a->indent, a->name, n, value, md, temp);
  if (const unsigned n = boolLanes(target); n > 0 && n <= 64 && from == fmt::format("i{}", n))
    return unpack(a->indent, a->name, n, value, md, temp);
  return {};
}

}  // namespace

int expandBoolVectorBitcasts(std::vector<std::string>& lines) {
  return ir::expandLines(lines, expand);
}

}  // namespace spvsim::compiler
