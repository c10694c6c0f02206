// Edits of clang-15's diagnostic output, for warnings that are wrong about spvsim's device
// and that clang offers no narrower way to silence.
#pragma once

#include <string>
#include <string_view>

namespace spvsim::compiler {

// `log` without the warnings whose message starts with `message` (each with the include
// stack before it and the source line and caret after it), and with clang's "N warnings generated."
// summary counting only the warnings left (gone when none are left and there are no errors).
std::string withoutWarnings(std::string_view log, std::string_view message);

}  // namespace spvsim::compiler
