#include "tools/cli/output.h"

#include <fmt/format.h>

#include "tools/cli/image_arg.h"
#include "tools/cli/scalar_codec.h"

namespace spvsim::tools {
namespace {

template <typename F>
std::string joinElements(const ArgValue& buffer, const char* separator, F format) {
  std::string out;
  for (uint64_t i = 0; i < buffer.count; ++i) {
    if (i) out += separator;
    out += format(buffer.bytes.data() + i * buffer.type.size());
  }
  return out;
}

}  // namespace

// A pipe's packets left after the run, in read order: "arg0 pipe int[8] = 3 4 (2 packets)".
std::string formatPipeLine(size_t index, const ArgValue& pipe) {
  ArgValue left = pipe;
  left.bytes = pipe.pipe ? pipe.pipe->contents() : pipe.bytes;
  left.count = left.bytes.size() / pipe.type.size();
  return fmt::format(
      "arg{} pipe {}[{}] = {}{}({} packet{})", index, pipe.type.name(), pipe.maxPackets,
      joinElements(left, " ",
                   [&](const uint8_t* p) { return formatElement(pipe.type, p, pipe.hex); }),
      left.count ? " " : "", left.count, left.count == 1 ? "" : "s");
}

std::string formatDumpLine(size_t index, const ArgValue& buffer) {
  if (buffer.kind == ArgValue::Kind::Image)
    return fmt::format("arg{} {} = {}", index, imageHeader(buffer),
                       joinElements(buffer, " ", [&](const uint8_t* p) {
                         return formatElement(buffer.type, p, buffer.hex);
                       }));
  if (buffer.kind == ArgValue::Kind::Pipe) return formatPipeLine(index, buffer);
  return fmt::format("arg{} {}[{}] = {}", index, buffer.type.name(), buffer.count,
                     joinElements(buffer, " ", [&](const uint8_t* p) {
                       return formatElement(buffer.type, p, buffer.hex);
                     }));
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
    out += fmt::format(
        "{}\n  \"arg{}\": [{}]", first ? "" : ",", i,
        joinElements(args[i], ",", [&](const uint8_t* p) { return jsonElement(args[i].type, p); }));
    first = false;
  }
  out += first ? "}" : "\n}";
  return out + (check.empty() ? "" : ",\n\"check\": " + check) + "}\n";
}

}  // namespace spvsim::tools
