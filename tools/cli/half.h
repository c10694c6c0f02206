// The command line's names for src/values/half.h (moved there so that the debugger
// layer, src/debugger, shares it without depending on tools/).
#pragma once

#include "src/values/half.h"

namespace spvsim::tools {

using values::fromHalf;
using values::toHalf;

}  // namespace spvsim::tools
