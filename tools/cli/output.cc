#include "tools/cli/output.h"

#include <fmt/format.h>

#include "tools/cli/image_arg.h"
#include "tools/cli/scalar_codec.h"

namespace spvsim::tools {
namespace {

// Each element's text appended to `out`, `separator` between them. With `stream`, `out`
// goes to it whenever it holds kChunk bytes (and is emptied): a dump of millions of
// elements never holds its whole text, whose growth would copy it again and again into
// fresh memory.
constexpr size_t kChunk = 1 << 16;

template <typename F>
void joinElements(std::string& out, const ArgValue& buffer, const char* separator, F append,
                  std::ostream* stream = nullptr) {
  for (uint64_t i = 0; i < buffer.count; ++i) {
    if (i) out += separator;
    append(out, buffer.bytes.data() + i * buffer.type.size());
    if (stream && out.size() >= kChunk) {
      stream->write(out.data(), std::streamsize(out.size()));
      out.clear();
    }
  }
}

// A pipe's packets left after the run, in read order: "arg0 pipe int[8] = 3 4 (2 packets)".
std::string formatPipeLine(size_t index, const ArgValue& pipe) {
  ArgValue left = pipe;
  if (pipe.pipe) {
    const std::vector<uint8_t> packets = pipe.pipe->contents();
    left.bytes.assign(packets.begin(), packets.end());
  }
  left.count = left.bytes.size() / pipe.type.size();
  std::string out = fmt::format("arg{} pipe {}[{}] = ", index, pipe.type.name(), pipe.maxPackets);
  joinElements(out, left, " ", [&](std::string& o, const uint8_t* p) {
    values::appendElement(o, pipe.type, p, pipe.hex);
  });
  return out + fmt::format("{}({} packet{})", left.count ? " " : "", left.count,
                           left.count == 1 ? "" : "s");
}

// The dump line of formatDumpLine into `out` (and `stream`, as joinElements does).
void dumpLine(std::string& out, size_t index, const ArgValue& buffer, std::ostream* stream) {
  auto element = [&](std::string& o, const uint8_t* p) {
    values::appendElement(o, buffer.type, p, buffer.hex);
  };
  if (buffer.kind == ArgValue::Kind::Image) {
    out += fmt::format("arg{} {} = ", index, imageHeader(buffer));
    return joinElements(out, buffer, " ", element, stream);
  }
  if (buffer.kind == ArgValue::Kind::Pipe) {
    out += formatPipeLine(index, buffer);
    return;
  }
  out += fmt::format("arg{} {}[{}] = ", index, buffer.type.name(), buffer.count);
  joinElements(out, buffer, " ", element, stream);
}

}  // namespace

std::string formatDumpLine(size_t index, const ArgValue& buffer) {
  std::string out;
  dumpLine(out, index, buffer, nullptr);
  return out;
}

void writeDumpLine(std::ostream& stream, size_t index, const ArgValue& buffer) {
  std::string out;
  out.reserve(kChunk + 256);
  dumpLine(out, index, buffer, &stream);
  out += '\n';
  stream.write(out.data(), std::streamsize(out.size()));
}

std::string formatJsonReport(const std::vector<std::string>& diagnostics,
                             const std::vector<ArgValue>& args, const std::string& build,
                             const std::string& check) {
  std::string out = build.empty() ? "{" : "{\"build\": " + build + ",\n";
  out += "\"diagnostics\": [";
  for (size_t i = 0; i < diagnostics.size(); ++i) out += (i ? ",\n  " : "\n  ") + diagnostics[i];
  out += diagnostics.empty() ? "],\n\"buffers\": {" : "\n],\n\"buffers\": {";
  bool first = true;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].holdsData()) continue;
    out += fmt::format("{}\n  \"arg{}\": [", first ? "" : ",", i);
    joinElements(out, args[i], ",", [&](std::string& o, const uint8_t* p) {
      values::appendJsonElement(o, args[i].type, p);
    });
    out += ']';
    first = false;
  }
  out += first ? "}" : "\n}";
  return out + (check.empty() ? "" : ",\n\"check\": " + check) + "}\n";
}

}  // namespace spvsim::tools
