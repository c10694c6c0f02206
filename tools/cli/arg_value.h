// One kernel argument as the command line prepares it, before the simulator sees it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/exec/arg_binding.h"
#include "src/exec/memory_limit.h"
#include "src/files/host_buffer.h"
#include "tools/cli/element_type.h"

namespace spvsim::tools {

struct ArgValue {
  enum class Kind { Value, Buffer, Local, Null, Image, Sampler, Pipe };
  Kind kind = Kind::Value;
  ElementType type;         // Value, Buffer: the element type as the user named it
  uint64_t count = 0;       // Value, Buffer: elements in `bytes`
  files::HostBytes bytes;   // Value: the argument; Buffer, Image: contents (results after a
                            // run); Pipe: the initial packets
  uint64_t localBytes = 0;  // Local
  bool dump = false;        // Buffer, Image: print after the run
  bool hex = false;         // Buffer: print integers in hexadecimal (.sim `hex`)
  // Buffer: whether kernels may read / write it (.sim wo / ro, buffer:wo: / buffer:ro:).
  bool readable = true, writable = true;
  bool noinit = false;     // Buffer: contents never initialised (.sim `noinit`)
  std::string text;        // as the user wrote it, for messages
  std::string structName;  // Value of struct:TYPE,...: "struct {int, float}"; else ""
  // Image: shape and format (tightly packed pixels in `bytes`, `type` one channel value's
  // type, `count` the channel values); Sampler: its state.
  ImageDesc image;
  SamplerDesc sampler;
  uint64_t maxPackets = 0;  // Pipe: capacity (packets of type.size() bytes)
  // Pipe: the pipe of the latest bindings(), holding `bytes` then what the launch left.
  std::shared_ptr<PipeStorage> pipe;
  // Buffer sharing an allocation with other arguments (a capture bundle's sub-buffers, one
  // buffer passed twice): the kernel sees bytes [storageOffset, storageOffset + bytes.size())
  // of args[*storageArg].storage; `bytes` is a copy, refreshed by syncSharedStorage.
  std::optional<size_t> storageArg;
  uint64_t storageOffset = 0;
  files::HostBytes storage;  // the shared allocation, held by one of its arguments

  bool isPointerKind() const { return kind != Kind::Value; }
  bool isStruct() const { return !structName.empty(); }
  // Buffers and images: memory the kernel may change, dumped and compared after runs.
  bool holdsData() const { return kind == Kind::Buffer || kind == Kind::Image; }
};

// The host memory the arguments' buffers take, counted against --max-memory before each
// buffer is allocated (a launch's own memory is counted by the simulator, against what
// is left: launchOptions).
struct ArgMemory {
  uint64_t limit = ~uint64_t(0);
  uint64_t used = 0;

  // Throws Error(DiagnosticKind::OutOfMemory) when `bytes` more would pass the limit.
  void reserve(uint64_t bytes, const std::string& what) {
    checkMemory(addBytes(used, bytes), limit, what);
    used += bytes;
  }
  uint64_t left() const { return limit - used; }
};

// The arguments as the simulator and the argument checks take them (src/exec/arg_check.h):
// buffers point into `args`, and each carries its type and text for messages. Each call
// gives every pipe argument a fresh pipe holding its initial packets (ArgValue::pipe).
std::vector<ArgBinding> bindings(std::vector<ArgValue>& args);

// After a launch: each argument with a shared allocation copies its window into `bytes`
// (what dumps and comparisons read).
void syncSharedStorage(std::vector<ArgValue>& args);

}  // namespace spvsim::tools
