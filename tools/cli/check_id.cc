#include "tools/cli/check_id.h"

#include <fmt/format.h>

namespace spvsim::tools {

uint64_t fnv1a64(std::span<const uint8_t> bytes, uint64_t state) {
  for (uint8_t b : bytes) {
    state ^= b;
    state *= kFnvPrime;
  }
  return state;
}

uint64_t fnv1a64(std::string_view text, uint64_t state) {
  return fnv1a64(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()), state);
}

std::string hex64(uint64_t value) { return fmt::format("{:016x}", value); }

uint64_t contentDigest(const Contents& contents) {
  return fnv1a64(contents.bytes, fnv1a64(fmt::format("{}\n", contents.elementSize)));
}

namespace {

uint64_t hashWords(std::span<const uint32_t> words, uint64_t h) {
  h = fnv1a64(fmt::format("module {}\n", words.size()), h);
  for (uint32_t w : words) {
    const uint8_t le[4] = {uint8_t(w), uint8_t(w >> 8), uint8_t(w >> 16), uint8_t(w >> 24)};
    h = fnv1a64(le, h);
  }
  return h;
}

uint64_t hashArg(size_t index, const ArgValue& a, uint64_t h) {
  h = fnv1a64(fmt::format("arg {} kind {} text {}\ntype {} count {} local {} bytes {}\n", index,
                          static_cast<int>(a.kind), a.text, a.type.name(), a.count, a.localBytes,
                          a.bytes.size()),
              h);
  return fnv1a64(a.bytes, h);
}

}  // namespace

uint64_t launchHash(std::span<const uint32_t> words, std::string_view kernel, const IdRange& range,
                    const std::vector<ArgValue>& args, std::string_view sweepPath) {
  uint64_t h = hashWords(words, fnv1a64("spvsim-check-id 1\n"));
  auto sizes = [](const std::array<uint64_t, 3>& s) {
    return fmt::format("{},{},{}", s[0], s[1], s[2]);
  };
  h = fnv1a64(
      fmt::format("\nkernel {}\nglobal {}\nlocal {}\noffset {}\n", kernel, sizes(range.global),
                  range.localGiven ? sizes(range.local) : "auto", sizes(range.offset)),
      h);
  for (size_t i = 0; i < args.size(); ++i) h = hashArg(i, args[i], h);
  if (!sweepPath.empty()) h = fnv1a64(fmt::format("sweep-path {}\n", sweepPath), h);
  return h;
}

std::string configText(const ConfigFields& fields) {
  std::string out;
  for (const auto& [name, value] : fields) out += name + '=' + value + '\n';
  return out;
}

std::string configId(uint64_t launch, const ConfigFields& fields) {
  return hex64(fnv1a64(configText(fields), launch));
}

}  // namespace spvsim::tools
