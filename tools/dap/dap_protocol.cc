#include "tools/dap/dap_protocol.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>

#include "spirv/error.h"

namespace spvsim::tools::dap {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string frame(std::string_view body) {
  return fmt::format("Content-Length: {}\r\n\r\n{}", body.size(), body);
}

// The header block buffer_[0, end) (without its empty line): Content-Length is required,
// other fields (Content-Type) are allowed and ignored.
Frame MessageReader::header(size_t end) {
  const std::string block = buffer_.substr(0, end);
  buffer_.erase(0, end + 4);
  searched_ = 0;
  std::optional<size_t> length;
  size_t at = 0;
  while (at <= block.size()) {
    size_t eol = block.find("\r\n", at);
    if (eol == std::string::npos) eol = block.size();
    const std::string_view line(block.data() + at, eol - at);
    at = eol + 2;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos)
      return {Frame::Kind::Error, fmt::format("malformed header line '{}'", line)};
    if (lower(trim(line.substr(0, colon))) != "content-length") continue;
    const std::string_view value = trim(line.substr(colon + 1));
    size_t n = 0;
    const auto [end2, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || end2 != value.data() + value.size() || value.empty())
      return {Frame::Kind::Error, fmt::format("bad Content-Length '{}'", value)};
    if (n > kMaxBody)
      return {Frame::Kind::Error,
              fmt::format("Content-Length {} is more than the {} bytes accepted", n, kMaxBody)};
    length = n;
  }
  if (!length) return {Frame::Kind::Error, "header without Content-Length"};
  pending_ = *length;
  inBody_ = true;
  return {};
}

// Whether the header block at the start of the buffer cannot end within kMaxHeader bytes,
// whatever bytes come next: its empty line starts later (`end`), or there is none and no
// byte at or before kMaxHeader starts a prefix of one that later bytes could complete.
// Decided by the stream alone, so a message is read the same however its bytes arrive.
bool MessageReader::headerTooLong(size_t end) const {
  if (end != std::string::npos) return end > kMaxHeader;
  if (buffer_.size() <= kMaxHeader) return false;
  constexpr std::string_view kEnd = "\r\n\r\n";
  for (size_t at = buffer_.size() - std::min<size_t>(buffer_.size(), 3); at <= kMaxHeader; ++at)
    if (kEnd.substr(0, buffer_.size() - at) == std::string_view(buffer_).substr(at)) return false;
  return true;
}

Frame MessageReader::next() {
  if (!inBody_) {
    // From where the last search stopped (less the 3 bytes an empty line may have begun
    // in): a client sending its header a byte at a time costs linear time, not quadratic.
    const size_t end = buffer_.find("\r\n\r\n", searched_ > 3 ? searched_ - 3 : 0);
    searched_ = buffer_.size();
    if (headerTooLong(end)) {
      // The bytes where no header's end can start are dropped; reading goes on after them.
      buffer_.erase(0, kMaxHeader + 1);
      searched_ = 0;
      return {Frame::Kind::Error, fmt::format("no end of header within {} bytes", kMaxHeader)};
    }
    if (end == std::string::npos) return {};
    Frame f = header(end);
    if (f.kind == Frame::Kind::Error) return f;
  }
  if (buffer_.size() < pending_) return {};
  Frame f{Frame::Kind::Message, buffer_.substr(0, pending_)};
  buffer_.erase(0, pending_);
  searched_ = 0;
  inBody_ = false;
  pending_ = 0;
  return f;
}

namespace {

// Fills `bytes` from getrandom(); where the kernel lacks it, from /dev/urandom.
void fillRandom(unsigned char* bytes, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = getrandom(bytes + done, size - done, 0);
    if (n > 0) {
      done += static_cast<size_t>(n);
    } else if (n < 0 && errno == ENOSYS) {
      break;
    } else if (n < 0 && errno != EINTR) {
      throw Error(DiagnosticKind::Input,
                  fmt::format("spvsim dap: getrandom failed: {}", std::strerror(errno)));
    }
  }
  if (done == size) return;
  const int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  while (fd >= 0 && done < size) {
    const ssize_t n = read(fd, bytes + done, size - done);
    if (n > 0) done += static_cast<size_t>(n);
    if (n == 0 || (n < 0 && errno != EINTR)) break;
  }
  if (fd >= 0) close(fd);
  if (done < size)
    throw Error(DiagnosticKind::Input, "spvsim dap: no random source for the client token");
}

}  // namespace

std::string randomToken() {
  unsigned char bytes[16];
  fillRandom(bytes, sizeof bytes);
  std::string hex;
  for (unsigned char b : bytes) hex += fmt::format("{:02x}", b);
  return hex;
}

bool sameToken(std::string_view expected, std::string_view given) {
  // Every byte of `expected` is compared, whatever differs first; `volatile` keeps the
  // compiler from ending the loop early.
  volatile unsigned char differ = expected.size() != given.size();
  for (size_t i = 0; i < expected.size(); ++i)
    differ = differ | static_cast<unsigned char>(expected[i] ^ (i < given.size() ? given[i] : 0));
  return differ == 0 && !expected.empty();
}

}  // namespace spvsim::tools::dap
