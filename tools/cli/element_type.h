// The command line's names for src/values/element_type.h (moved there so that the debugger
// layer, src/debugger, shares it without depending on tools/).
#pragma once

#include "src/values/element_type.h"

namespace spvsim::tools {

using values::ElementType;
using values::isFloating;
using values::isSignedInteger;
using values::parseElementType;
using values::Scalar;
using values::scalarName;
using values::scalarSize;

}  // namespace spvsim::tools
