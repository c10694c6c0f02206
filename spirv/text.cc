#include "spirv/text.h"

#include <fmt/core.h>

namespace spvsim::spirv {
namespace {

// Bytes in the valid UTF-8 sequence starting at s[i] (2..4), or 0 when there is none.
size_t utf8Length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  const unsigned char d = byte(i + 1);
  if ((c == 0xe0 && d < 0xa0) || (c == 0xed && d >= 0xa0) || (c == 0xf0 && d < 0x90) ||
      (c == 0xf4 && d >= 0x90))
    return 0;                           // overlong, surrogate or beyond U+10FFFF
  if (c == 0xc2 && d < 0xa0) return 0;  // C1 control characters U+0080..U+009F
  return n;
}

void appendEscaped(std::string& out, unsigned char c) {
  switch (c) {
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default:
      out += fmt::format("\\x{:02x}", c);
  }
}

}  // namespace

std::string escapeText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
      ++i;
    } else if (size_t n = c >= 0x80 ? utf8Length(text, i) : 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      appendEscaped(out, c);
      ++i;
    }
  }
  return out;
}

}  // namespace spvsim::spirv
