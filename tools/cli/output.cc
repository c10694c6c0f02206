#include "tools/cli/output.h"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

#include "tools/cli/image_arg.h"
#include "tools/cli/scalar_codec.h"

namespace spvsim::tools {
namespace {

// Each element's text appended to `out`, `separator` between them. With `stream`, `out`
// goes to it whenever it holds kChunk bytes (and is emptied): a dump of millions of
// elements never holds its whole text, whose growth would copy it again and again into
// fresh memory.
constexpr size_t kChunk = 1 << 16;

// Elements [first, last) of `buffer`, each after `separator` but the buffer's first one.
template <typename F>
void appendElements(std::string& out, const ArgValue& buffer, uint64_t first, uint64_t last,
                    char separator, F append, std::ostream* stream = nullptr) {
  for (uint64_t i = first; i < last; ++i) {
    if (i) out += separator;
    append(out, buffer.bytes.data() + i * buffer.type.size());
    if (stream && out.size() >= kChunk) {
      stream->write(out.data(), std::streamsize(out.size()));
      out.clear();
    }
  }
}

template <typename F>
void joinElements(std::string& out, const ArgValue& buffer, char separator, F append,
                  std::ostream* stream = nullptr) {
  appendElements(out, buffer, 0, buffer.count, separator, append, stream);
}

// Elements a thread formats at a time in a parallel dump: about 150 KB of float text,
// which stays in the core's cache until it is written.
constexpr uint64_t kBlockElements = uint64_t{1} << 14;

// The elements' text written to `stream` as joinElements makes it, formatted by this
// thread and up to `threads` - 1 helpers, one block each per round, each into a string of
// its own, and written in order after each round (formatting a float's shortest text
// costs far more than writing it: one thread took 0.3 s for triad's 12.6M floats). The
// helpers live for the whole dump; where none can be started, this thread formats
// every block.
template <typename F>
void writeElementsInParallel(std::ostream& stream, const ArgValue& buffer, char separator, F append,
                             unsigned threads) {
  const uint64_t blocks = (buffer.count + kBlockElements - 1) / kBlockElements;
  // A cache line each: the threads append to their strings at once.
  struct alignas(64) Slot {
    std::string text;
    std::exception_ptr failed;
  };
  std::vector<Slot> slots(threads);
  std::mutex mutex;
  std::condition_variable posted, finished;
  uint64_t round = 0, firstBlock = 0;  // the round posted, and its first block
  unsigned busy = 0;                   // helpers still formatting the round
  bool stop = false;
  auto format = [&](unsigned t, uint64_t block) {
    slots[t].text.clear();
    if (block >= blocks) return;
    try {
      const uint64_t first = block * kBlockElements;
      appendElements(slots[t].text, buffer, first, std::min(buffer.count, first + kBlockElements),
                     separator, append);
    } catch (...) {  // std::bad_alloc: rethrown by this thread
      slots[t].failed = std::current_exception();
    }
  };
  auto helper = [&](unsigned t) {
    for (uint64_t seen = 0;;) {
      std::unique_lock lock(mutex);
      posted.wait(lock, [&] { return stop || round != seen; });
      if (stop) return;
      seen = round;
      const uint64_t block = firstBlock + t;
      lock.unlock();
      format(t, block);
      lock.lock();
      if (--busy == 0) finished.notify_one();
    }
  };
  std::vector<std::thread> helpers;
  helpers.reserve(threads);  // (so that starting one throws nothing but system_error)
  // However this ends (a write that throws, a block that could not be formatted), the
  // helpers stop and are joined before the slots they write go.
  struct Stop {
    std::mutex& mutex;
    std::condition_variable& posted;
    bool& stop;
    std::vector<std::thread>& helpers;
    ~Stop() {
      {
        std::lock_guard lock(mutex);
        stop = true;
      }
      posted.notify_all();
      for (std::thread& h : helpers) h.join();
    }
  } stopHelpers{mutex, posted, stop, helpers};
  for (unsigned t = 1; t < threads; ++t) {
    try {
      helpers.emplace_back(helper, t);
    } catch (const std::system_error&) {  // no thread now: fewer format the blocks
      break;
    }
  }
  const unsigned working = unsigned(helpers.size()) + 1;
  for (uint64_t first = 0; first < blocks; first += working) {
    {
      std::lock_guard lock(mutex);
      firstBlock = first;
      busy = working - 1;
      ++round;
    }
    posted.notify_all();
    format(0, first);
    {
      std::unique_lock lock(mutex);
      finished.wait(lock, [&] { return busy == 0; });
    }
    for (unsigned t = 0; t < working; ++t) {
      if (slots[t].failed) std::rethrow_exception(slots[t].failed);
      stream.write(slots[t].text.data(), std::streamsize(slots[t].text.size()));
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
  joinElements(out, left, ' ', [&](std::string& o, const uint8_t* p) {
    values::appendElement(o, pipe.type, p, pipe.hex);
  });
  return out + fmt::format("{}({} packet{})", left.count ? " " : "", left.count,
                           left.count == 1 ? "" : "s");
}

// What a dump line says before its elements: "arg2 int[8] = ".
std::string dumpHeader(size_t index, const ArgValue& buffer) {
  if (buffer.kind == ArgValue::Kind::Image)
    return fmt::format("arg{} {} = ", index, imageHeader(buffer));
  return fmt::format("arg{} {}[{}] = ", index, buffer.type.name(), buffer.count);
}

// The dump line of formatDumpLine into `out` (and `stream`, as joinElements does).
void dumpLine(std::string& out, size_t index, const ArgValue& buffer, std::ostream* stream) {
  if (buffer.kind == ArgValue::Kind::Pipe) {
    out += formatPipeLine(index, buffer);
    return;
  }
  out += dumpHeader(index, buffer);
  joinElements(
      out, buffer, ' ',
      [&](std::string& o, const uint8_t* p) {
        values::appendElement(o, buffer.type, p, buffer.hex);
      },
      stream);
}

}  // namespace

std::string formatDumpLine(size_t index, const ArgValue& buffer) {
  std::string out;
  dumpLine(out, index, buffer, nullptr);
  return out;
}

void writeDumpLine(std::ostream& stream, size_t index, const ArgValue& buffer, unsigned threads) {
  if (threads > 1 && buffer.kind != ArgValue::Kind::Pipe && buffer.count > 4 * kBlockElements) {
    const std::string header = dumpHeader(index, buffer);
    stream.write(header.data(), std::streamsize(header.size()));
    writeElementsInParallel(
        stream, buffer, ' ',
        [&](std::string& o, const uint8_t* p) {
          values::appendElement(o, buffer.type, p, buffer.hex);
        },
        threads);
    stream.put('\n');
    return;
  }
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
    joinElements(out, args[i], ',', [&](std::string& o, const uint8_t* p) {
      values::appendJsonElement(o, args[i].type, p);
    });
    out += ']';
    first = false;
  }
  out += first ? "}" : "\n}";
  return out + (check.empty() ? "" : ",\n\"check\": " + check) + "}\n";
}

}  // namespace spvsim::tools
