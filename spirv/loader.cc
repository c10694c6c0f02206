#include "spirv/loader.h"

#include <fmt/core.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <spirv-tools/libspirv.hpp>

#include "spirv/call_graph.h"
#include "spirv/error.h"
#include "spirv/legacy_atomics.h"
#include "spirv/normalize.h"
#include "spirv/parser.h"
#include "spirv/text.h"
#include "spirv/validator.h"

namespace spvsim::spirv {

void checkSupported(const Module& module);  // capabilities.cc

namespace {

// The magic number as it reads from a module of the other byte order.
constexpr uint32_t kSwappedMagic = __builtin_bswap32(spv::MagicNumber);

}  // namespace

Module loadModule(std::vector<uint32_t> words, const LoadOptions& options) {
  if (words.empty()) throw Error(DiagnosticKind::InvalidModule, "empty module");
  // The spec allows either byte order; the magic number tells which (SPIR-V 2.3).
  if (words[0] == kSwappedMagic)
    for (uint32_t& w : words) w = __builtin_bswap32(w);
  if (words[0] != spv::MagicNumber)
    throw Error(DiagnosticKind::InvalidModule,
                fmt::format("not a SPIR-V module: bad magic number 0x{:08x}", words[0]));
  if (words.size() < 5) throw Error(DiagnosticKind::InvalidModule, "truncated module header");
  NormalizedModule normalized = normalizeModule(std::move(words));
  if (options.validate) validate(normalized.words);
  Module module = parseModule(std::move(normalized.words));
  module.repairs = std::move(normalized.repairs);
  checkSupported(module);
  // OpenCL forbids recursion, and spvsim gives each function one frame of private
  // memory (src/exec/lowering.cc): a recursive module would run with calls sharing it.
  if (options.refuseRecursion)
    if (std::optional<CallCycle> cycle = findCallCycle(module))
      throw Error(DiagnosticKind::InvalidModule, recursionMessage(module, *cycle));
  markPossiblyLegacyAtomics(module);
  return module;
}

std::vector<uint32_t> readBinaryFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(DiagnosticKind::InvalidModule, fmt::format("cannot read '{}'", escapeText(path)));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return wordsFromBytes(bytes, path);
}

std::vector<uint32_t> wordsFromBytes(std::string_view bytes, const std::string& path) {
  if (bytes.size() % 4 != 0)
    throw Error(DiagnosticKind::InvalidModule,
                fmt::format("'{}' is not a SPIR-V binary: {} bytes is not a whole number "
                            "of 32-bit words",
                            escapeText(path), bytes.size()));
  std::vector<uint32_t> words(bytes.size() / 4);
  if (!bytes.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

std::vector<uint32_t> assemble(const std::string& text) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string message;
  tools.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t& pos, const char* msg) {
        if (message.empty()) message = fmt::format("line {}: {}", pos.line + 1, msg);
      });
  std::vector<uint32_t> words;
  if (!tools.Assemble(text, &words, SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS))
    throw Error(DiagnosticKind::InvalidModule, "cannot assemble: " + escapeText(message));
  return words;
}

}  // namespace spvsim::spirv
