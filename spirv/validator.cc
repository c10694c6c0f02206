#include "spirv/validator.h"

#include <fmt/core.h>

#include <spirv-tools/libspirv.hpp>
#include <string>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "spirv/text.h"

namespace spvsim::spirv {
namespace {

constexpr uint32_t kVersion14 = 0x00010400;

// The universal environment of the module's version: it accepts every capability, so
// that spvsim, not the environment, decides what executes (capabilities.cc); the
// OpenCL 2.2 environment would refuse Int64Atomics and Float16, which the device offers
// through cl_khr_int64_base_atomics and cl_khr_fp16.
spv_target_env targetEnvironment(uint32_t version) {
  switch ((version >> 8) & 0xff) {
    case 0:
      return SPV_ENV_UNIVERSAL_1_0;
    case 1:
      return SPV_ENV_UNIVERSAL_1_1;
    case 2:
      return SPV_ENV_UNIVERSAL_1_2;
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

void refuseWideIntegers(const Binary& b) {
  for (const BinaryInstruction& inst : b.code)
    if (inst.op == spv::Op::OpTypeInt && inst.word(2) > 64)
      throw Error(DiagnosticKind::Unsupported,
                  fmt::format("unsupported: {}-bit integers (%{} = OpTypeInt {}); spvsim "
                              "executes integers of up to 64 bits",
                              inst.word(2), inst.result, inst.word(2)));
}

}  // namespace

std::string targetEnvironmentName(uint32_t version) {
  return spvTargetEnvDescription(targetEnvironment(version));
}

void dropDebugInfo(Binary& b) {
  const std::unordered_set<Id> sets = extInstImports(b, kOpenclDebugInfo);
  if (sets.empty()) return;
  std::erase_if(b.code, [&](const BinaryInstruction& inst) {
    return isExtInstOf(inst, sets) ||
           (inst.op == spv::Op::OpExtInstImport && sets.count(inst.result));
  });
}

void useStrongCompareExchange(Binary& b) {
  if (b.version() < kVersion14) return;
  for (BinaryInstruction& inst : b.code)
    if (inst.op == spv::Op::OpAtomicCompareExchangeWeak) inst.op = spv::Op::OpAtomicCompareExchange;
}

std::vector<uint32_t> validationCopy(Binary b) {
  dropDebugInfo(b);
  useStandardIntWidths(b);
  useStrongCompareExchange(b);
  return b.encode();
}

std::vector<uint32_t> validationCopy(const std::vector<uint32_t>& words) {
  std::optional<Binary> b = parseBinary(words);
  return b ? validationCopy(std::move(*b)) : words;
}

void validate(const std::vector<uint32_t>& words) {
  if (words.size() < kHeaderWords)
    throw Error(DiagnosticKind::InvalidModule, "truncated module: shorter than the SPIR-V header");
  std::vector<uint32_t> copy = words;  // unparsable: SPIRV-Tools says why
  if (std::optional<Binary> b = parseBinary(words)) {
    refuseWideIntegers(*b);
    copy = validationCopy(std::move(*b));
  }
  spvtools::SpirvTools tools(targetEnvironment(words[1]));
  std::string message;
  tools.SetMessageConsumer(
      [&](spv_message_level_t level, const char*, const spv_position_t&, const char* text) {
        if (level > SPV_MSG_ERROR || !message.empty()) return;
        message = text;
      });
  spvtools::ValidatorOptions options;
  if (!tools.Validate(copy.data(), copy.size(), options))
    throw Error(DiagnosticKind::InvalidModule,
                "validation failed: " +
                    (message.empty() ? "unknown reason" : escapeText(oneLine(message))));
}

}  // namespace spvsim::spirv
