#include "tools/cli/check_reconvergence.h"

#include <fmt/format.h>

#include "src/debugger/debug_print.h"

namespace spvsim::tools {
namespace {

std::string ordinal(uint64_t n) {
  const uint64_t tens = n % 100, ones = n % 10;
  const char* suffix = tens >= 11 && tens <= 13 ? "th"
                       : ones == 1              ? "st"
                       : ones == 2              ? "nd"
                       : ones == 3              ? "rd"
                                                : "th";
  return fmt::format("{}{}", n, suffix);
}

std::string valueText(const spirv::Module& module, const check::TangleLog& log,
                      const check::TangleResult* r) {
  if (!r) return "not executed";
  return debugger::formatValue(module, r->type, log.bytesOf(*r), {},
                               [](uint64_t p) { return debugger::formatRawPointer(p); });
}

}  // namespace

std::string describeTangleDifference(const spirv::Module& module, const LoweredKernel& kernel,
                                     const check::TangleLog& ipdom, const check::TangleLog& random,
                                     uint64_t seed) {
  const auto d = check::firstDifference(ipdom, random);
  if (!d) {
    if (ipdom.truncated() || random.truncated())
      return fmt::format(
          "the first {} results of sub-group operations are the same at ipdom and at "
          "random:{} (later ones were not compared)",
          ipdom.limit(), seed);
    return fmt::format(
        "every sub-group operation returns the same at ipdom and at random:{}: the results "
        "differ through the order in which the lanes' memory accesses ran",
        seed);
  }
  const check::TangleResult& at = d->a ? *d->a : *d->b;
  return fmt::format(
      "the first sub-group operation whose result differs: {} in work-group ({},{},{}), "
      "sub-group {}, lane {} (the lane's {} execution of it): {} at ipdom, {} at random:{}",
      kernel.describeInstruction(at.src), at.groupId[0], at.groupId[1], at.groupId[2], at.subGroup,
      at.lane, ordinal(uint64_t(at.occurrence) + 1), valueText(module, ipdom, d->a),
      valueText(module, random, d->b), seed);
}

}  // namespace spvsim::tools
