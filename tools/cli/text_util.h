// The command line's names for src/values/text_util.h (moved there so that the debugger
// layer, src/debugger, shares it without depending on tools/).
#pragma once

#include "src/values/text_util.h"

namespace spvsim::tools {

using values::endsWith;
using values::parseUnsigned;
using values::readTextFile;
using values::split;
using values::trim;
using values::withoutUtf8Bom;

}  // namespace spvsim::tools
