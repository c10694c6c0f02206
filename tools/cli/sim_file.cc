#include "tools/cli/sim_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cmath>
#include <exception>
#include <mutex>
#include <optional>
#include <sstream>
#include <system_error>
#include <thread>

#include "spirv/error.h"
#include "src/exec/arg_check.h"
#include "src/files/host_buffer.h"
#include "tools/cli/arg_spec.h"
#include "tools/cli/buffer_init.h"
#include "tools/cli/image_arg.h"
#include "tools/cli/scalar_codec.h"
#include "tools/cli/text_util.h"

namespace spvsim::tools {

using Kind = spirv::ParamKind;

namespace {

std::optional<Scalar> headerType(std::string_view token) {
  auto t = parseElementType(token);
  if (!t || t->lanes != 1 || t->scalar == Scalar::SizeT) return std::nullopt;
  return t->scalar;
}

// The type a header without one takes, from the parameter's OpenCL C type as Oclgrind
// does: "float*" -> float, "uint4" -> uint, "void*" -> uchar.
std::optional<Scalar> defaultType(const spirv::ParamSignature& p) {
  std::string_view name = p.typeName;
  for (std::string_view prefix : {"const ", "volatile "})
    if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
  size_t end = 0;
  while (end < name.size() &&
         (std::isalpha(static_cast<unsigned char>(name[end])) || name[end] == '_'))
    ++end;
  if (name.substr(0, end) == "void") return Scalar::UChar;
  return headerType(name.substr(0, end));
}

bool isBuffer(Kind k) { return k == Kind::GlobalPointer || k == Kind::ConstantPointer; }

// A running value of T from `start`, `inc` added per element (Oclgrind's floats).
template <class T>
void runningRange(std::span<uint8_t> bytes, uint64_t elements, T start, T inc) {
  // A buffer's storage (operator new): aligned for any scalar.
  T* out = reinterpret_cast<T*>(bytes.data());
  T value = start;
  for (uint64_t i = 0; i < elements; ++i, value += inc) out[i] = value;
}

template <class T>
void integerRange(std::span<uint8_t> bytes, uint64_t elements, uint64_t first, uint64_t step) {
  T* out = reinterpret_cast<T*>(bytes.data());
  for (uint64_t i = 0; i < elements; ++i) out[i] = T(first + i * step);
}

// The .sim range START:INC:END gives (END - START + INC) / INC values; Oclgrind adds INC
// to a running value of the element type, which this reproduces (it matters for floats).
struct RangeSpec {
  double start = 0, inc = 0;     // floating types
  uint64_t first = 0, step = 0;  // integer types (wrapping)
};

RangeSpec parseRange(Scalar s, std::string_view text, uint64_t elements, IntegerBase base) {
  const auto parts = split(text, ':');
  if (parts.size() != 3) throw Error(DiagnosticKind::Input, "expected range=START:INC:END");
  uint8_t v[3][8];
  for (int i = 0; i < 3; ++i) storeLiteral(s, parts[i], v[i], base);
  RangeSpec r;
  r.start = loadReal(s, v[0]);
  r.inc = loadReal(s, v[1]);
  const double end = loadReal(s, v[2]);
  const double count = (end - r.start + r.inc) / r.inc;
  if (r.inc == 0 || count != std::floor(count) || count != static_cast<double>(elements))
    throw Error(DiagnosticKind::Input,
                fmt::format("range={} gives {} values but size= holds {}", text,
                            std::isfinite(count) ? fmt::format("{}", count) : "no", elements));
  r.first = loadBits(s, v[0]);
  r.step = loadBits(s, v[1]);
  return r;
}

void writeRange(Scalar s, const RangeSpec& r, std::span<uint8_t> bytes) {
  const uint32_t size = scalarSize(s);
  const uint64_t elements = bytes.size() / size;
  if (s == Scalar::Float) {  // typed loops: no call per element (a 16 MB buffer is 4M)
    runningRange<float>(bytes, elements, static_cast<float>(r.start), static_cast<float>(r.inc));
  } else if (s == Scalar::Half) {
    float value = static_cast<float>(r.start);
    for (uint64_t i = 0; i < elements; ++i, value += static_cast<float>(r.inc))
      storeReal(s, value, bytes.data() + i * size);
  } else if (s == Scalar::Double) {
    runningRange<double>(bytes, elements, r.start, r.inc);
  } else {
    switch (size) {  // wrapping, truncated to the width, as storeBits
      case 1:
        return integerRange<uint8_t>(bytes, elements, r.first, r.step);
      case 2:
        return integerRange<uint16_t>(bytes, elements, r.first, r.step);
      case 4:
        return integerRange<uint32_t>(bytes, elements, r.first, r.step);
      default:
        return integerRange<uint64_t>(bytes, elements, r.first, r.step);
    }
  }
}

// Copies of the buffer's first `element` bytes into the rest, doubling what is done.
void replicateFirst(std::span<uint8_t> bytes, size_t element, uint64_t count) {
  const size_t filled = size_t(count) * element;
  for (size_t done = element; done < filled;) {
    const size_t n = std::min(done, filled - done);
    std::copy_n(bytes.data(), n, bytes.data() + done);
    done += n;
  }
}

}  // namespace

SimFile::Header SimFile::parseHeader(const std::string& text, const spirv::ParamSignature& param) {
  Header h = SimText::parseHeader(text);
  if (!h.type) h.type = defaultType(param);
  return h;
}

ArgValue SimFile::readArgument(const spirv::ParamSignature& param) {
  setContext(fmt::format("argument {}: {}", param.index, param.name));
  if (param.kind == Kind::Image || param.kind == Kind::Sampler)
    return readImageOrSampler(headerText(), param);
  if (param.kind == Kind::Queue) {  // no Oclgrind form: spvsim's <queue>
    if (trim(headerText()) != "queue")
      fail("a queue_t parameter takes <queue> (the device queue of the command line)");
    return parseArgSpec("queue");
  }
  const Header h = parseHeader(headerText(), param);
  if (param.kind == Kind::Pipe) return readPipe(h, param);
  if (h.pipe) fail("pipe=MAXPACKETS is only valid for pipe parameters");
  const bool bufferOnly = h.dump || h.noinit || h.null || h.ro || h.wo;
  if ((h.ro || h.wo) && param.kind != Kind::GlobalPointer)
    fail("'ro' and 'wo' are only valid for global buffers");
  if (h.ro && h.wo) fail("'ro' and 'wo' are mutually exclusive");
  if (bufferOnly && !isBuffer(param.kind))
    fail("dump, noinit, null, ro and wo are only valid for global or constant buffers");
  if (param.isOpaque()) fail(checkArgument(param, ArgBinding::null())->what());
  if (param.kind == Kind::LocalPointer) {
    if (!h.fill.empty() || !h.range.empty()) fail("a local argument takes no initializer");
    if (!h.size || *h.size == 0) fail("a local argument needs size=BYTES (more than 0)");
    ArgValue arg;
    arg.kind = ArgValue::Kind::Local;
    arg.localBytes = *h.size;
    arg.text = h.text;
    return arg;
  }
  if (h.null) {
    if (h.size || !h.fill.empty() || !h.range.empty() || h.noinit || h.dump)
      fail("'null' cannot be combined with size, fill, range, noinit or dump");
    ArgValue arg;
    arg.kind = ArgValue::Kind::Null;
    arg.text = h.text;
    return arg;
  }
  if (param.kind == Kind::ByValStruct) return readStruct(h, param);
  if (!h.members.empty()) fail("struct=TYPE,... is only valid for a struct passed by value");
  return readBuffer(h, param);
}

// A struct passed by value: either member by member, <struct=TYPE,TYPE,...> followed by
// one value per component (laid out as the command line's struct:TYPE,...=V,... is), or
// as Oclgrind writes it, <size=BYTES TYPE> followed by the struct's bytes as values of
// one type (padding included).
ArgValue SimFile::readStruct(const Header& h, const spirv::ParamSignature& param) {
  if (h.members.empty()) {
    ArgValue arg = readBuffer(h, param);
    arg.structName = fmt::format("{} values", scalarName(*h.type));
    return arg;
  }
  if (h.size || !h.fill.empty() || !h.range.empty() || h.noinit || h.type)
    fail("struct=TYPE,... takes its values member by member: no type, size, fill, range or noinit");
  size_t components = 0;
  for (std::string_view name : split(h.members, ',')) {
    const auto member = parseElementType(name);
    if (!member) fail(fmt::format("'{}' in struct={} is not a member type", name, h.members));
    components += member->lanes;
  }
  std::string values;
  for (size_t i = 0; i < components; ++i) values += (i ? "," : "") + token("a struct member value");
  try {
    ArgValue arg = parseArgSpec("struct:" + h.members + "=" + values);
    arg.text = h.text;
    return arg;
  } catch (const Error& e) {
    fail(e.what());
  }
}

ArgValue SimFile::readBuffer(const Header& h, const spirv::ParamSignature& param) {
  if (!h.size) fail("size=BYTES is required");
  if (!h.type)
    fail(
        fmt::format("the header names no type and the parameter's type '{}' gives none; add "
                    "one such as int",
                    param.typeName));
  const uint32_t typeSize = scalarSize(*h.type);
  // A buffer may be empty (Oclgrind allocates it: a valid pointer to no bytes).
  if ((*h.size == 0 && !isBuffer(param.kind)) || *h.size % typeSize != 0)
    fail(fmt::format("size={} is not a {} multiple of the {}-byte {}", *h.size,
                     isBuffer(param.kind) ? "whole" : "positive", typeSize, scalarName(*h.type)));
  if (int(!h.fill.empty()) + int(!h.range.empty()) + int(h.noinit) > 1)
    fail("give at most one of fill, range and noinit");
  if (*h.size > kMaxBufferBytes)
    fail(fmt::format("size={} is larger than {} bytes", *h.size, kMaxBufferBytes));
  if (memory_) reserveBuffer(*h.size);
  ArgValue arg;
  arg.kind = isBuffer(param.kind) ? ArgValue::Kind::Buffer : ArgValue::Kind::Value;
  arg.type = ElementType{*h.type, 1};
  arg.count = *h.size / typeSize;
  arg.dump = h.dump;
  arg.hex = h.hex;
  arg.readable = !h.wo;
  arg.writable = !h.ro;
  arg.noinit = h.noinit && arg.kind == ArgValue::Kind::Buffer;
  arg.text = h.text;
  // A large buffer without values in the file (fill, range, noinit: checked now, so that
  // errors name the position) is allocated and written later, beside the others
  // (readArguments): first writes of fresh memory cost what the kernel's page zeroing
  // costs, which two cores do twice as fast.
  if (arg.kind == ArgValue::Kind::Buffer && *h.size >= files::kHugePageMinimum) {
    if (Initializer init = initializer(h, arg); init || h.noinit) {
      pending_.push_back({argIndex_, *h.size, std::move(init)});
      return arg;
    }
  }
  files::zeroedBytes(arg.bytes, *h.size);
  readData(h, arg);
  return arg;
}

SimFile::Initializer SimFile::initializer(const Header& h, const ArgValue& arg) {
  const IntegerBase base = h.hex ? IntegerBase::Hex : IntegerBase::Auto;
  const Scalar s = arg.type.scalar;
  const uint64_t count = arg.count;
  try {
    if (!h.fill.empty()) {
      // The literal has storage of its own: a buffer may hold no element (size=0) and
      // the value is still checked.
      std::array<uint8_t, 8> value{};
      storeLiteral(s, h.fill, value.data(), base);
      const uint32_t size = scalarSize(s);
      if (count == 0 || std::all_of(value.begin(), value.end(), [](uint8_t b) { return b == 0; }))
        return [](std::span<uint8_t>) {};  // zero bytes are what the buffer starts with
      return [value, size, count](std::span<uint8_t> bytes) {
        std::copy_n(value.data(), size, bytes.data());
        replicateFirst(bytes, size, count);
      };
    }
    if (!h.range.empty()) {
      const RangeSpec r = parseRange(s, h.range, count, base);
      return [s, r](std::span<uint8_t> bytes) { writeRange(s, r, bytes); };
    }
  } catch (const Error& e) {
    if (std::string_view(e.what()).substr(0, name().size() + 1) == name() + ":") throw;
    fail(e.what());  // a bad literal or range: add the file position
  }
  return nullptr;
}

void SimFile::readData(const Header& h, ArgValue& arg) {
  const IntegerBase base = h.hex ? IntegerBase::Hex : IntegerBase::Auto;
  const Scalar s = arg.type.scalar;
  if (h.noinit) return;
  if (const Initializer init = initializer(h, arg)) return init(arg.bytes);
  try {
    for (uint64_t i = 0; i < arg.count; ++i)
      storeLiteral(s, token("a value"), arg.bytes.data() + i * scalarSize(s), base);
  } catch (const Error& e) {
    if (std::string_view(e.what()).substr(0, name().size() + 1) == name() + ":") throw;
    fail(e.what());  // a bad literal or range: add the file position
  }
}

// <image2d ORDER,TYPE[W,H] fill=V dump> (channel values follow unless fill, range or
// noinit) and <sampler NORMALIZED,CLAMP,LINEAR>, checked by the argument check.
ArgValue SimFile::readImageOrSampler(const std::string& text, const spirv::ParamSignature& param) {
  std::istringstream in(text);
  std::string head, shape;
  in >> head >> shape;
  ArgValue arg;
  try {
    if (head == "sampler") {
      arg = parseSampler(shape);
    } else if (isImageHead(head)) {
      arg = parseImageShape(head, shape);
    } else {
      fail(
          fmt::format("{} takes <{}> with an image or sampler: e.g. <image2d RGBA,UNORM_INT8[4,4]> "
                      "or <sampler NORMALIZED,CLAMP,NEAREST>",
                      param.declaration(), text));
    }
  } catch (const Error& e) {
    if (std::string_view(e.what()).substr(0, name().size() + 1) == name() + ":") throw;
    fail(e.what());
  }
  arg.text = "<" + text + ">";
  Header h;
  for (std::string t; in >> t;) {
    const size_t eq = t.find('=');
    if (arg.kind == ArgValue::Kind::Sampler)
      fail(fmt::format("unexpected '{}' after the sampler", t));
    if (t == "dump" || t == "hex" || t == "noinit") {
      (t == "dump" ? h.dump : t == "hex" ? h.hex : h.noinit) = true;
    } else if (eq != std::string::npos && t.substr(0, eq) == "fill") {
      h.fill = t.substr(eq + 1);
    } else if (eq != std::string::npos && t.substr(0, eq) == "range") {
      h.range = t.substr(eq + 1);
    } else {
      fail(fmt::format("unknown image header token '{}' (fill=V, range=.., noinit, dump, hex)", t));
    }
  }
  if (arg.kind == ArgValue::Kind::Sampler) return arg;
  if (int(!h.fill.empty()) + int(!h.range.empty()) + int(h.noinit) > 1)
    fail("give at most one of fill, range and noinit");
  if (memory_) reserveBuffer(arg.bytes.size());
  arg.dump = h.dump;
  arg.hex = h.hex;
  readData(h, arg);
  return arg;
}

// <pipe=MAXPACKETS [TYPE] [size=BYTES] [fill=V | range=S:I:E] [dump] [hex]>: a pipe of
// MAXPACKETS packets of the parameter's element type ("pipe int4": int4), holding
// size=BYTES of initial packets, whose values follow as for a buffer (component by
// component), unless fill or range gives them; without size it starts empty.
ArgValue SimFile::readPipe(const Header& h, const spirv::ParamSignature& param) {
  if (!h.pipe) fail("a pipe argument needs pipe=MAXPACKETS");
  if (h.noinit || h.null || h.ro || h.wo) fail("noinit, null, ro and wo are not valid for pipes");
  if (!h.type) fail(fmt::format("the header names no type and '{}' gives none", param.typeName));
  auto packet = parseElementType(param.typeName);
  if (!packet || packet->scalar != *h.type) packet = ElementType{*h.type, 1};
  if (packet->lanes == 3) fail("pipes of 3-component vectors are not supported in .sim files");
  const uint64_t bytes = h.size.value_or(0);
  if (bytes % packet->size() != 0 || bytes / packet->size() > *h.pipe)
    fail(fmt::format("size={} is not a whole number of {} packets, at most pipe={}", bytes,
                     packet->name(), *h.pipe));
  if (!h.size && (!h.fill.empty() || !h.range.empty())) fail("fill and range need size=BYTES");
  if (memory_) reserveBuffer(bytes);
  ArgValue arg;
  arg.type = ElementType{*h.type, 1};
  arg.count = bytes / scalarSize(*h.type);
  files::zeroedBytes(arg.bytes, bytes);
  arg.hex = h.hex;
  if (bytes) readData(h, arg);
  arg.kind = ArgValue::Kind::Pipe;
  arg.type = *packet;
  arg.count = bytes / packet->size();
  arg.maxPackets = *h.pipe;
  arg.dump = h.dump;
  arg.text = h.text;
  return arg;
}

// ArgMemory::reserve with the file position in the message (the kind stays out-of-memory).
void SimFile::reserveBuffer(uint64_t bytes) {
  try {
    memory_->reserve(bytes, "the buffer arguments");
  } catch (const Error& e) {
    throw Error(e.kind(), fmt::format("{}:{}: {} ({})", name(), lineNumber(), e.what(), context()));
  }
}

std::vector<ArgValue> SimFile::readArguments(const std::vector<spirv::ParamSignature>& params,
                                             ArgMemory* memory) {
  memory_ = memory;
  pending_.clear();
  std::vector<ArgValue> args;
  for (const spirv::ParamSignature& p : params) {
    argIndex_ = args.size();
    args.push_back(readArgument(p));
  }
  setContext("after the last argument");
  if (skipSpace())
    fail(fmt::format("unexpected '{}': the kernel takes {} argument{}", token(""), params.size(),
                     params.size() == 1 ? "" : "s"));
  writePending(args);
  return args;
}

// The large buffers readBuffer left: allocated and written on up to one thread per core,
// the largest first. A range is a running sum, so each buffer is written by one thread.
void SimFile::writePending(std::vector<ArgValue>& args) {
  std::sort(pending_.begin(), pending_.end(),
            [](const Pending& a, const Pending& b) { return a.bytes > b.bytes; });
  std::atomic<size_t> next{0};
  std::mutex failed;
  std::exception_ptr failure;
  auto work = [&] {
    for (size_t j; (j = next++) < pending_.size();) {
      try {
        files::HostBytes& bytes = args[pending_[j].arg].bytes;
        files::zeroedBytes(bytes, pending_[j].bytes);
        if (pending_[j].init) pending_[j].init(bytes);
      } catch (...) {  // std::bad_alloc: rethrown by the reading thread
        std::lock_guard lock(failed);
        if (!failure) failure = std::current_exception();
      }
    }
  };
  const size_t threads =
      std::min<size_t>(pending_.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < threads; ++t) {
    try {
      helpers.emplace_back(work);
    } catch (const std::system_error&) {  // no thread now: this one writes them all
      break;
    }
  }
  work();
  for (std::thread& t : helpers) t.join();
  pending_.clear();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace spvsim::tools
