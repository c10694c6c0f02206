#include "spirv/text.h"

#include <fmt/core.h>

#include <algorithm>

namespace spvsim::spirv {
namespace {

// Bytes in the valid UTF-8 sequence starting at s[i] (2..4), or 0 when there is none.
size_t utf8Length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  size_t n = c >= 0xf0 && c <= 0xf4   ? 4
             : c >= 0xe0 && c <= 0xef ? 3
             : c >= 0xc2 && c < 0xe0  ? 2
                                      : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  const unsigned char d = byte(i + 1);
  if ((c == 0xe0 && d < 0xa0) || (c == 0xed && d >= 0xa0) || (c == 0xf0 && d < 0x90) ||
      (c == 0xf4 && d >= 0x90))
    return 0;  // overlong, surrogate or beyond U+10FFFF
  return n;
}

// C1 control characters U+0080..U+009F are valid UTF-8 but terminals act on them.
bool isC1(std::string_view s, size_t i) {
  return static_cast<unsigned char>(s[i]) == 0xc2 && i + 1 < s.size() &&
         static_cast<unsigned char>(s[i + 1]) < 0xa0;
}

// The two-character escapes of messages and JSON alike; nullptr for other bytes.
const char* shortEscape(unsigned char c) {
  switch (c) {
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    default:
      return nullptr;
  }
}

void appendEscaped(std::string& out, unsigned char c) {
  if (const char* e = shortEscape(c))
    out += e;
  else
    out += fmt::format("\\x{:02x}", c);
}

// Appends the JSON form of an ASCII byte: escaped when JSON needs it (or DEL, which
// terminals may act on), else the byte itself.
void appendJsonAscii(std::string& out, unsigned char c) {
  switch (c) {
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    default:
      if (const char* e = shortEscape(c))
        out += e;
      else if (c < 0x20 || c == 0x7f)
        out += fmt::format("\\u{:04x}", c);
      else
        out += char(c);
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
    } else if (size_t n = c >= 0x80 && !isC1(text, i) ? utf8Length(text, i) : 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      appendEscaped(out, c);
      ++i;
    }
  }
  return out;
}

std::string escapeText(std::string_view text, size_t maxBytes) {
  if (text.size() <= maxBytes) return escapeText(text);
  size_t cut = 0;  // the end of the last whole character (or stray byte) that fits
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const size_t n = c >= 0x80 ? std::max<size_t>(utf8Length(text, i), 1) : 1;
    if (i + n > maxBytes) break;
    i += n;
    cut = i;
  }
  return escapeText(text.substr(0, cut)) + "...";
}

std::string jsonStringLiteral(std::string_view text) {
  std::string out = "\"";
  out.reserve(text.size() + 2);
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      appendJsonAscii(out, c);
      ++i;
    } else if (isC1(text, i)) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(text[i + 1]));
      i += 2;
    } else if (const size_t n = utf8Length(text, i)) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out += "\xef\xbf\xbd";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    }
  }
  return out + "\"";
}

std::string markupText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += (uint8_t(c) < 0x20 && c != '\n' && c != '\t') ? '?' : c;
    }
  }
  return out;
}

}  // namespace spvsim::spirv
