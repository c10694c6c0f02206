// The OpenCL C text the compile driver includes after clang-15's default header
// (`-include`): it makes the predefined macros exactly the device's (undefining what
// clang-15 defines by itself for spir64) and supplies the cl_intel_subgroups_char/short/
// long functions that clang-15 does not declare or that llvm-spirv-15 cannot translate.
#pragma once

#include <string>

namespace spvsim::compiler {

std::string preludeText();

}  // namespace spvsim::compiler
