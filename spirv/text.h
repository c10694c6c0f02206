// Text that comes from a module (OpName, OpString, entry-point names, decorations) or
// from a caller (.sim files, bundle manifests, the command line), made safe for
// diagnostics and error messages, which are one line each: a name holding a newline or a
// terminal escape sequence must not split or forge lines, and JSON that carries it must
// stay valid JSON in valid UTF-8.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace spvsim::spirv {

// Control characters become \n, \r, \t or \xNN (also NUL, ESC, DEL and the C1 controls);
// bytes that are not part of valid UTF-8 become \xNN. Printable text, including UTF-8,
// and backslashes are kept as they are: the result is for people, not for parsing back.
// Escaping escaped text again changes nothing.
std::string escapeText(std::string_view text);

// How much of a name a message quotes: a name from a module or a file may be megabytes.
constexpr size_t kQuotedNameBytes = 200;

// escapeText of at most the first `maxBytes` bytes of `text`, cut before a UTF-8
// character that would not fit, then "..." when anything was cut.
std::string escapeText(std::string_view text, size_t maxBytes);

// `text` as a JSON string literal, quotes included: '"', '\' and control characters
// escaped (C0 and DEL as \uXXXX or \n-style, C1 as \u0080..\u009f), each byte that is
// not part of valid UTF-8 replaced by U+FFFD. The literal is valid JSON in valid UTF-8
// whatever `text` holds, and exact when `text` is valid UTF-8.
std::string jsonStringLiteral(std::string_view text);

// Text for HTML and XML 1.0 alike (the profile, JUnit reports): & < > " ' as character
// references, and control characters but tab and newline, which XML 1.0 cannot carry at
// all, as '?'.
std::string markupText(std::string_view text);

}  // namespace spvsim::spirv
