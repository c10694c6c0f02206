// Text that comes from a module (OpName, OpString, entry-point names, decorations) or
// from a caller, made safe for diagnostics and error messages, which are one line each:
// a name holding a newline or a terminal escape sequence must not split or forge lines.
#pragma once

#include <string>
#include <string_view>

namespace spvsim::spirv {

// Control characters become \n, \r, \t or \xNN (also DEL and the C1 controls); bytes
// that are not part of valid UTF-8 become \xNN. Printable text, including UTF-8, and
// backslashes are kept as they are: the result is for people, not for parsing back.
std::string escapeText(std::string_view text);

}  // namespace spvsim::spirv
