#include "runtime/layer/binary_sources.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "src/compiler/compile_cache.h"
#include "src/files/whole_file.h"

namespace spvsim::layer {
namespace {

constexpr std::string_view kHeader = "spvsim-layer-program 1\n";

// FNV-1a, 64 bits: the name of a binary's entry (with its size; an entry also holds
// nothing that could do harm if two binaries ever shared a name: a program's text).
uint64_t fnv1a(const uint8_t* bytes, size_t size) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i) h = (h ^ bytes[i]) * 0x100000001b3ull;
  return h;
}

}  // namespace

std::string BinarySources::defaultDirectory() {
  const std::optional<compiler::CompileCache> cache = compiler::CompileCache::open();
  return cache ? cache->directory() + "/layer-programs" : "";
}

std::string BinarySources::path(const uint8_t* binary, size_t size) const {
  return fmt::format("{}/{:016x}-{}.program", dir_, fnv1a(binary, size), size);
}

void BinarySources::remember(const uint8_t* binary, size_t size,
                             const ProgramRecord& program) const {
  if (dir_.empty() || !binary || size == 0 || !program.built ||
      program.origin == ProgramRecord::Origin::Other)
    return;
  std::string text(kHeader);
  text += program.origin == ProgramRecord::Origin::Source ? "source\n" : "il\n";
  text += fmt::format("{}\n", program.options.size()) + program.options;
  text += program.origin == ProgramRecord::Origin::Source
              ? program.source
              : std::string(program.il.begin(), program.il.end());
  try {
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    files::writeFileWhole(path(binary, size), text);
  } catch (const std::exception&) {
    // Best effort (see the header).
  }
}

std::optional<ProgramRecord> BinarySources::recall(const uint8_t* binary, size_t size) const {
  if (dir_.empty() || !binary || size == 0) return std::nullopt;
  std::ifstream in(path(binary, size), std::ios::binary);
  if (!in) return std::nullopt;
  const std::string text{std::istreambuf_iterator<char>(in), {}};
  if (text.compare(0, kHeader.size(), kHeader) != 0) return std::nullopt;
  std::istringstream rest(text.substr(kHeader.size()));
  std::string origin;
  size_t optionsSize = 0;
  if (!std::getline(rest, origin) || !(rest >> optionsSize) || rest.get() != '\n')
    return std::nullopt;
  const size_t at = static_cast<size_t>(rest.tellg());
  if (at > text.size() - kHeader.size() || optionsSize > text.size() - kHeader.size() - at)
    return std::nullopt;
  ProgramRecord r;
  r.options = text.substr(kHeader.size() + at, optionsSize);
  const std::string body = text.substr(kHeader.size() + at + optionsSize);
  if (origin == "source") {
    r.origin = ProgramRecord::Origin::Source;
    r.source = body;
  } else if (origin == "il") {
    r.origin = ProgramRecord::Origin::IL;
    r.il.assign(body.begin(), body.end());
  } else {
    return std::nullopt;
  }
  r.built = true;
  return r;
}

}  // namespace spvsim::layer
