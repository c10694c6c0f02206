// Array indices of access chains against their arrays' lengths (see array_bounds.h).
#include "src/exec/ops/array_bounds.h"

#include <fmt/core.h>

#include <algorithm>

#include "spirv/module.h"

namespace spvsim::ops {

namespace {

constexpr uint32_t kCheckWords = 6;

// A constant index's signed value.
int64_t constantIndex(const Lowerer& lw, spirv::Id index) {
  const uint32_t bytes = static_cast<uint32_t>(lw.typeOfValue(index).size);
  const uint64_t v = lw.constantValue(index);
  return signedIndex(reinterpret_cast<const uint8_t*>(&v), bytes);
}

bool outOfBounds(int64_t v, uint64_t length, bool allowEnd) {
  return v < 0 || uint64_t(v) > length || (uint64_t(v) == length && !allowEnd);
}

}  // namespace

void ArrayIndexChecks::add(Lowerer& lw, spirv::Id index, spirv::Id arrayType) {
  const uint64_t length = lw.type(arrayType).count;
  if (length == 0) return;  // a zero-length array (a flexible member): no length to keep to
  if (lw.isConstant(index)) {
    const int64_t v = constantIndex(lw, index);
    if (v >= 0 && uint64_t(v) < length) return;
  }
  checks.push_back({index, arrayType, length, true});
}

std::optional<uint32_t> ArrayIndexChecks::emit(Lowerer& lw, spirv::Id result) {
  const spirv::Type& pointee = lw.type(lw.type(lw.typeIdOfValue(result)).element);
  const bool dereferenced = lw.onlyDereferenced(result);
  std::vector<uint32_t> words{
      0, uint32_t(std::min<uint64_t>(std::max<uint64_t>(pointee.size, 1), UINT32_MAX))};
  for (const Check& c : checks) {
    const bool allowEnd = c.last && !dereferenced;
    // A constant index exactly at the end, where that is allowed, never fails.
    if (lw.isConstant(c.index) && !outOfBounds(constantIndex(lw, c.index), c.length, allowEnd))
      continue;
    words.insert(words.end(),
                 {lw.reg(c.index), uint32_t(lw.typeOfValue(c.index).size), uint32_t(c.length),
                  uint32_t(c.length >> 32), uint32_t(allowEnd), c.arrayType});
    ++words[0];
  }
  if (words[0] == 0) return std::nullopt;
  return lw.addExtra(words);
}

void checkArrayIndices(SubGroup& sg, const Inst& in) {
  const uint32_t* w = sg.extra + in.aux2;
  const uint32_t count = w[0], bytes = w[1];
  const uint64_t* r = sg.reg<uint64_t>(in.r);
  LaneMask failed;
  int64_t firstIndex = 0;
  const uint32_t* firstCheck = nullptr;
  sg.forActive([&](uint32_t l) {
    for (uint32_t k = 0; k < count; ++k) {
      const uint32_t* q = w + 2 + kCheckWords * k;
      const int64_t v = signedIndex(sg.regs + q[0] + size_t(l) * q[1], q[1]);
      if (!outOfBounds(v, q[2] | (uint64_t(q[3]) << 32), q[4] != 0)) continue;
      // Outside the object, the access through the pointer is what gets reported.
      AccessError err;
      if (!sg.locate(r[l], l, bytes, false, err)) return;
      if (!failed.any()) {
        firstIndex = v;
        firstCheck = q;
      }
      failed.set(l);
      return;
    }
  });
  if (!failed.any()) [[likely]]
    return;
  const uint64_t length = firstCheck[2] | (uint64_t(firstCheck[3]) << 32);
  const std::string array = spirv::typeName(*sg.wg->launch->module, firstCheck[5]);
  const std::string what =
      uint64_t(firstIndex) == length
          ? fmt::format("index {} is one past the end of an array {} and the element is accessed",
                        firstIndex, array)
          : fmt::format("index {} is out of the bounds of an array {} (indices 0..{})", firstIndex,
                        array, length - 1);
  sg.report(in, DiagnosticKind::OutOfBounds,
            fmt::format("{}: the pointer is {} (inside the object, outside the array)", what,
                        describePlace(*sg.wg->launch->memory, r[failed.first()])),
            failed);
}

}  // namespace spvsim::ops
