#include "tools/cli/arg_spec.h"

#include <fmt/format.h>

#include <algorithm>

#include "spirv/error.h"
#include "src/files/host_buffer.h"
#include "src/files/input_file.h"
#include "tools/cli/buffer_init.h"
#include "tools/cli/image_arg.h"
#include "tools/cli/scalar_codec.h"
#include "tools/cli/text_util.h"

namespace spvsim::tools {
namespace {

[[noreturn]] void fail(const std::string& message) {
  throw Error(DiagnosticKind::InvalidArgument, message);
}

bool isUnsupportedKind(std::string_view head) { return head == "event"; }

// queue: the command line's one device queue (its implicit default, handle 1 in
// LaunchOptions::deviceQueues), for queue_t parameters; a queue_t value is its handle.
ArgValue parseQueue() {
  ArgValue arg;
  arg.type = ElementType{Scalar::ULong, 1};
  arg.count = 1;
  arg.bytes = {1, 0, 0, 0, 0, 0, 0, 0};
  return arg;
}

ElementType elementType(std::string_view name) {
  if (auto t = parseElementType(name)) return *t;
  fail(
      fmt::format("unknown type '{}' (expected char, uchar, short, ushort, int, uint, long, "
                  "ulong, half, float, double, size_t, or a vector such as float4)",
                  name));
}

ArgValue parseValue(std::string_view typeName, std::string_view list) {
  ArgValue arg;
  arg.type = elementType(typeName);
  arg.count = 1;
  const auto values = split(list, ',');
  if (values.size() != 1 && values.size() != arg.type.lanes)
    fail(fmt::format("{} takes {} value{} (or one for every component), not {}", arg.type.name(),
                     arg.type.lanes, arg.type.lanes == 1 ? "" : "s", values.size()));
  arg.bytes.resize(arg.type.size());
  fillBuffer(arg.type, values, arg.bytes);
  return arg;
}

// struct:TYPE,TYPE,...=V,V,...: the members laid out as OpenCL C lays out a struct (each
// member aligned to its size, a vec3 as a vec4; the struct padded to its largest
// alignment), one value per component of every member, in order.
ArgValue parseStruct(std::string_view body) {
  const size_t eq = body.find('=');
  if (eq == std::string_view::npos) fail("expected struct:TYPE,TYPE,...=V,V,...");
  const auto names = split(body.substr(0, eq), ',');
  const auto values = split(body.substr(eq + 1), ',');
  ArgValue arg;
  arg.count = 1;
  uint64_t align = 1, offset = 0;
  size_t next = 0;
  for (std::string_view name : names) {
    const ElementType member = elementType(name);
    if (next + member.lanes > values.size()) break;
    offset = (offset + member.size() - 1) / member.size() * member.size();
    align = std::max(align, member.size());
    arg.bytes.resize(offset + member.size());
    std::vector<uint8_t> one(member.size());
    valuesBuffer(member, {values.begin() + next, values.begin() + next + member.lanes}, one);
    std::copy(one.begin(), one.end(), arg.bytes.begin() + offset);
    offset += member.size();
    next += member.lanes;
    arg.structName += (arg.structName.empty() ? "struct {" : ", ") + member.name();
  }
  size_t components = 0;
  for (std::string_view name : names) components += elementType(name).lanes;
  if (values.size() != components)
    fail(fmt::format("the struct's members have {} component{} but {} value{} given", components,
                     components == 1 ? "" : "s", values.size(),
                     values.size() == 1 ? " is" : "s are"));
  arg.bytes.resize((offset + align - 1) / align * align);
  arg.structName += "}";
  return arg;
}

ArgValue parseLocal(std::string_view text) {
  ArgValue arg;
  arg.kind = ArgValue::Kind::Local;
  if (!parseUnsigned(trim(text), arg.localBytes) || arg.localBytes == 0)
    fail(fmt::format("local memory size '{}' is not a positive number of bytes", text));
  return arg;
}

// Checks the size before reading: a file far larger than the buffer is not read at all.
files::HostBytes readBytes(const std::string& path, uint64_t expected) {
  files::InputFile file(path);
  if (file.size() != expected)
    fail(
        fmt::format("file '{}' has {} bytes but the buffer needs {}", path, file.size(), expected));
  return file.readAt(0, expected);
}

void initialize(ArgValue& arg, std::string_view init) {
  if (init == "zero") return;
  const size_t open = init.find('(');
  if (open == std::string_view::npos || init.back() != ')')
    fail(
        fmt::format("unknown initializer '{}' (expected zero, fill(V), range(START[,STEP]), "
                    "values(V,...), random(SEED[,LO,HI]) or file(PATH))",
                    init));
  const std::string_view name = trim(init.substr(0, open));
  const std::string_view inner = init.substr(open + 1, init.size() - open - 2);
  if (name == "fill") return fillBuffer(arg.type, split(inner, ','), arg.bytes);
  if (name == "values") return valuesBuffer(arg.type, split(inner, ','), arg.bytes);
  if (name == "range") {
    const auto parts = split(inner, ',');
    if (parts.size() > 2) fail("range() takes START or START,STEP");
    return rangeBuffer(arg.type, parts[0], parts.size() == 2 ? parts[1] : "1", arg.bytes);
  }
  if (name == "random") {
    const auto parts = split(inner, ',');
    if (parts.size() != 1 && parts.size() != 3) fail("random() takes SEED or SEED,LO,HI");
    uint64_t seed = 0;
    if (!parseUnsigned(trim(parts[0]), seed))
      fail(fmt::format("random() seed '{}' is not an unsigned number", parts[0]));
    if (parts.size() == 3)
      return randomRangeBuffer(arg.type, seed, trim(parts[1]), trim(parts[2]), arg.bytes);
    return randomBuffer(arg.type, seed, arg.bytes);
  }
  if (name == "file") {
    arg.bytes = readBytes(std::string(trim(inner)), arg.bytes.size());
    return;
  }
  fail(fmt::format("unknown initializer '{}' (expected zero, fill, range, values, random or file)",
                   name));
}

ArgValue parseBuffer(std::string_view text, ArgMemory* memory) {
  // buffer:ro:TYPE[N] / buffer:wo:TYPE[N]: created read-only / write-only, as
  // CL_MEM_READ_ONLY / CL_MEM_WRITE_ONLY (a kernel access they forbid is reported).
  bool readable = true, writable = true;
  if (const std::string_view t = trim(text); t.starts_with("ro:") || t.starts_with("wo:")) {
    (t[0] == 'r' ? writable : readable) = false;
    text = t.substr(3);
  }
  const size_t open = text.find('[');
  const size_t close = text.find(']');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open)
    fail("expected buffer:TYPE[N]=INIT, e.g. buffer:float[1024]=range(0)");
  ArgValue arg;
  arg.kind = ArgValue::Kind::Buffer;
  arg.type = elementType(trim(text.substr(0, open)));
  const std::string_view count = trim(text.substr(open + 1, close - open - 1));
  if (!parseUnsigned(count, arg.count) || arg.count == 0)
    fail(fmt::format("buffer length '{}' is not a positive number of elements", count));
  if (arg.count > kMaxBufferBytes / arg.type.size())
    fail(fmt::format("buffer of {} {} elements is larger than {} bytes", arg.count, arg.type.name(),
                     kMaxBufferBytes));
  if (memory) memory->reserve(arg.count * arg.type.size(), "the buffer arguments");
  files::zeroedBytes(arg.bytes, arg.count * arg.type.size());
  arg.readable = readable;
  arg.writable = writable;
  const std::string_view rest = trim(text.substr(close + 1));
  if (rest.empty()) return arg;
  if (rest[0] != '=') fail(fmt::format("expected '=INIT' after ']', found '{}'", rest));
  initialize(arg, trim(rest.substr(1)));
  return arg;
}

// image2d:ORDER,TYPE[W,H]=INIT and the other image types (tools/image_arg.h); INIT as
// for buffers, over the channel values.
ArgValue parseImage(std::string_view head, std::string_view body, ArgMemory* memory) {
  const size_t close = body.find(']');
  ArgValue arg = parseImageShape(
      head, body.substr(0, close == std::string_view::npos ? body.size() : close + 1));
  if (memory) memory->reserve(arg.bytes.size(), "the buffer arguments");
  const std::string_view rest = trim(body.substr(close + 1));
  if (rest.empty()) return arg;
  if (rest[0] != '=') fail(fmt::format("expected '=INIT' after ']', found '{}'", rest));
  initialize(arg, trim(rest.substr(1)));
  return arg;
}

// pipe:TYPE[MAXPACKETS]=INIT: a pipe of MAXPACKETS packets of TYPE. values(V,...) puts
// that many packets in it (one value per component); the other initializers fill every
// packet (a full pipe); without "=INIT" it starts empty.
ArgValue parsePipe(std::string_view text, ArgMemory* memory) {
  const size_t eq = text.find('=');
  const std::string_view init = eq == std::string_view::npos ? "" : trim(text.substr(eq + 1));
  if (text.substr(0, eq).find('[') == std::string_view::npos)
    fail("expected pipe:TYPE[N]=INIT, e.g. pipe:int[16]=values(1,2,3)");
  ArgValue arg = parseBuffer(text.substr(0, eq), memory);
  arg.kind = ArgValue::Kind::Pipe;
  arg.maxPackets = arg.count;
  if (arg.type.size() > 1024)  // CL_DEVICE_PIPE_MAX_PACKET_SIZE (the ICD's limit)
    fail(fmt::format("{} packets are larger than 1024 bytes", arg.type.name()));
  if (init.empty()) {
    arg.bytes.clear();
    return arg;
  }
  if (init.substr(0, 7) == "values(") {
    const size_t values = split(init.substr(7, init.size() - 8), ',').size();
    if (values % arg.type.lanes != 0 || values / arg.type.lanes > arg.maxPackets)
      fail(
          fmt::format("values() gives {} component{}: not whole {} packets, or more than the "
                      "pipe's {}",
                      values, values == 1 ? "" : "s", arg.type.name(), arg.maxPackets));
    arg.bytes.assign(values / arg.type.lanes * arg.type.size(), 0);
  }
  initialize(arg, init);
  return arg;
}

ArgValue parseUnchecked(std::string_view spec, ArgMemory* memory) {
  if (spec == "null") {
    ArgValue arg;
    arg.kind = ArgValue::Kind::Null;
    return arg;
  }
  const size_t colon = spec.find(':');
  const std::string_view head = trim(spec.substr(0, colon));
  if (isUnsupportedKind(head)) fail("events are not supported as arguments yet");
  if (spec == "queue" || spec == "queue:default") return parseQueue();
  if (colon == std::string_view::npos) {
    if (parseElementType(head)) fail(fmt::format("missing value: write {}:VALUE", head));
    fail("expected TYPE:VALUE, buffer:TYPE[N]=INIT, local:BYTES or null");
  }
  const std::string_view body = spec.substr(colon + 1);
  if (head == "buffer") return parseBuffer(body, memory);
  if (head == "local") return parseLocal(body);
  if (head == "struct") return parseStruct(body);
  if (isImageHead(head)) return parseImage(head, body, memory);
  if (head == "sampler") return parseSampler(body);
  if (head == "pipe") return parsePipe(body, memory);
  return parseValue(head, body);
}

}  // namespace

ArgValue parseArgSpec(std::string_view spec, ArgMemory* memory) {
  try {
    ArgValue arg = parseUnchecked(trim(spec), memory);
    arg.text = std::string(spec);
    return arg;
  } catch (const Error& e) {
    const bool memoryError = e.kind() == DiagnosticKind::OutOfMemory;
    throw Error(memoryError ? e.kind() : DiagnosticKind::InvalidArgument,
                fmt::format("--arg '{}': {}", spec, e.what()));
  }
}

std::string fileInitializerPath(std::string_view spec) {
  // As initialize() reads it: the INIT after the shape's ']'.
  const size_t close = spec.find(']');
  if (close == std::string_view::npos) return "";
  std::string_view init = trim(spec.substr(close + 1));
  if (!init.starts_with('=')) return "";
  init = trim(init.substr(1));
  const size_t open = init.find('(');
  if (open == std::string_view::npos || init.back() != ')' || trim(init.substr(0, open)) != "file")
    return "";
  return std::string(trim(init.substr(open + 1, init.size() - open - 2)));
}

}  // namespace spvsim::tools
