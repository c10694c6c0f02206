#include "spirv/validator.h"

#include <set>
#include <spirv-tools/libspirv.hpp>
#include <string>

#include "spirv/error.h"
#include "spirv/loader.h"

namespace spvsim::spirv {
namespace {

constexpr uint32_t kHeaderWords = 5;

std::string literalString(const uint32_t* w, uint32_t n) {
  std::string s;
  for (uint32_t k = 0; k < n; ++k)
    for (int b = 0; b < 4; ++b) {
      char c = static_cast<char>((w[k] >> (8 * b)) & 0xff);
      if (!c) return s;
      s.push_back(c);
    }
  return s;
}

spv_target_env targetEnvironment(uint32_t version) {
  uint32_t minor = (version >> 8) & 0xff;
  switch (minor) {
    case 0:
    case 1:
    case 2:
      return SPV_ENV_OPENCL_2_2;
    case 3:
      return SPV_ENV_UNIVERSAL_1_3;
    case 4:
      return SPV_ENV_UNIVERSAL_1_4;
    case 5:
      return SPV_ENV_UNIVERSAL_1_5;
    default:
      return SPV_ENV_UNIVERSAL_1_6;
  }
}

// The validator appends the offending instruction on a second line; diagnostics are
// one line each, so it becomes "message (at `instruction`)".
std::string oneLine(const std::string& message) {
  std::string first = message.substr(0, message.find('\n'));
  std::string rest =
      message.find('\n') == std::string::npos ? "" : message.substr(message.find('\n') + 1);
  while (!rest.empty() && (rest.back() == '\n' || rest.back() == ' ')) rest.pop_back();
  size_t start = rest.find_first_not_of(' ');
  rest = start == std::string::npos ? "" : rest.substr(start);
  for (char& c : rest)
    if (c == '\n') c = ' ';
  return rest.empty() ? first : first + " (at `" + rest + "`)";
}

}  // namespace

std::string targetEnvironmentName(uint32_t version) {
  return spvTargetEnvDescription(targetEnvironment(version));
}

std::vector<uint32_t> withoutDebugInfo(const std::vector<uint32_t>& words) {
  if (words.size() < kHeaderWords) return words;
  std::set<uint32_t> debugSets;
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  for (size_t pos = kHeaderWords; pos < words.size();) {
    uint32_t count = words[pos] >> 16;
    auto op = static_cast<spv::Op>(words[pos] & 0xffff);
    if (count == 0 || pos + count > words.size()) return words;  // let the parser report it
    bool drop = false;
    if (op == spv::Op::OpExtInstImport && count >= 3 &&
        literalString(&words[pos + 2], count - 2) == "OpenCL.DebugInfo.100") {
      debugSets.insert(words[pos + 1]);
      drop = true;
    } else if (op == spv::Op::OpExtInst && count >= 4 && debugSets.count(words[pos + 3])) {
      drop = true;
    }
    if (!drop) out.insert(out.end(), words.begin() + pos, words.begin() + pos + count);
    pos += count;
  }
  return out;
}

std::vector<uint32_t> withStandardIntWidths(std::vector<uint32_t> words) {
  if (words.size() < kHeaderWords) return words;
  std::set<uint32_t> declared;  // widths of OpTypeInt (Kernel modules: signedness 0)
  std::set<uint32_t> capabilities;
  std::vector<size_t> odd;
  for (size_t pos = kHeaderWords; pos < words.size();) {
    uint32_t count = words[pos] >> 16;
    if (count == 0 || pos + count > words.size()) return words;
    auto op = static_cast<spv::Op>(words[pos] & 0xffff);
    if (op == spv::Op::OpCapability && count == 2) capabilities.insert(words[pos + 1]);
    if (op == spv::Op::OpTypeInt && count == 4) {
      uint32_t w = words[pos + 2];
      if (w == 8 || w == 16 || w == 32 || w == 64)
        declared.insert(w);
      else if (w < 32)
        odd.push_back(pos);
    }
    pos += count;
  }
  std::vector<uint32_t> added;
  for (size_t pos : odd) {
    // Widths up to 32 keep one-word literals, so constants and switches stay valid.
    for (uint32_t w : {32u, 16u, 8u}) {
      if (w < words[pos + 2] || declared.count(w)) continue;
      words[pos + 2] = w;
      declared.insert(w);
      auto cap = uint32_t(w == 16 ? spv::Capability::Int16 : spv::Capability::Int8);
      if (w != 32 && !capabilities.count(cap)) {
        capabilities.insert(cap);
        added.insert(added.end(), {(2u << 16) | uint32_t(spv::Op::OpCapability), cap});
      }
      break;
    }
  }
  words.insert(words.begin() + kHeaderWords, added.begin(), added.end());
  return words;
}

std::vector<uint32_t> withStrongCompareExchange(std::vector<uint32_t> words) {
  if (words.size() < kHeaderWords || words[1] < 0x00010400) return words;
  for (size_t pos = kHeaderWords; pos < words.size();) {
    uint32_t count = words[pos] >> 16;
    if (count == 0 || pos + count > words.size()) return words;
    if (static_cast<spv::Op>(words[pos] & 0xffff) == spv::Op::OpAtomicCompareExchangeWeak)
      words[pos] = (count << 16) | uint32_t(spv::Op::OpAtomicCompareExchange);
    pos += count;
  }
  return words;
}

void validate(const std::vector<uint32_t>& words) {
  if (words.size() < kHeaderWords)
    throw Error("invalid-module", "truncated module: shorter than the SPIR-V header");
  // SPIRV-Tools 2023.1 rejects integer widths other than 8/16/32/64 even with
  // SPV_INTEL_arbitrary_precision_integers, which clang emits for narrowed switches:
  // the copy that is validated declares them with a free standard width instead.
  // llvm-spirv-15 emits OpAtomicCompareExchangeWeak (same operands as the strong form) in
  // SPIR-V 1.4 modules, where SPIRV-Tools no longer accepts it: validate it as the strong
  // form, which is also how it executes (a strong exchange is a valid weak one).
  std::vector<uint32_t> stripped =
      withStrongCompareExchange(withStandardIntWidths(withoutDebugInfo(words)));
  spvtools::SpirvTools tools(targetEnvironment(words[1]));
  std::string message;
  tools.SetMessageConsumer(
      [&](spv_message_level_t level, const char*, const spv_position_t& pos, const char* text) {
        if (level > SPV_MSG_ERROR || !message.empty()) return;
        message = text;
        (void)pos;
      });
  spvtools::ValidatorOptions options;
  if (!tools.Validate(stripped.data(), stripped.size(), options))
    throw Error("invalid-module",
                "validation failed: " + (message.empty() ? "unknown reason" : oneLine(message)));
}

}  // namespace spvsim::spirv
