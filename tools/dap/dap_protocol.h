// The Debug Adapter Protocol's base protocol: each message is a header block
// ("Content-Length: N", lines ending "\r\n", an empty line) then N bytes of JSON.
// MessageReader takes bytes as they arrive (any split: the messages and errors it yields
// depend only on the bytes) and yields whole bodies; a bad header is an error for that
// message only, and reading resumes after it. A header block longer than kMaxHeader is an
// error that drops kMaxHeader + 1 bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "tools/cli/json_value.h"

namespace spvsim::tools::dap {

// The largest body accepted: no DAP request comes near it, and a corrupt length must not
// make the adapter buffer without end.
inline constexpr size_t kMaxBody = 64u << 20;
// The largest header block: beyond it, without the empty line, the stream is not DAP.
inline constexpr size_t kMaxHeader = 8192;

struct Frame {
  enum class Kind { NeedMore, Message, Error };
  Kind kind = Kind::NeedMore;
  std::string body;  // Message: the JSON text; Error: what was wrong
};

class MessageReader {
 public:
  void feed(std::string_view bytes) { buffer_.append(bytes); }
  // The next message, an error about one bad header (dropped), or NeedMore.
  Frame next();
  size_t buffered() const { return buffer_.size(); }

 private:
  Frame header(size_t end);
  bool headerTooLong(size_t end) const;
  std::string buffer_;
  size_t pending_ = 0;   // a header was read: the body length awaited
  size_t searched_ = 0;  // bytes of buffer_ searched for a header's end so far
  bool inBody_ = false;
};

// "Content-Length: N\r\n\r\n" + body.
std::string frame(std::string_view body);

// `spvsim dap --port`'s client token: 128 bits from the kernel's random source
// (getrandom, else /dev/urandom), as 32 lowercase hex digits. Throws Error when there is
// no random source.
std::string randomToken();

// Whether `given` is `expected`, in a time that depends only on expected's length (a
// client cannot learn a prefix from how fast it is refused).
bool sameToken(std::string_view expected, std::string_view given);

}  // namespace spvsim::tools::dap
