// The command line's names for src/values/scalar_codec.h (moved there so that the debugger
// layer, src/debugger, shares it without depending on tools/).
#pragma once

#include "src/values/scalar_codec.h"
#include "tools/cli/element_type.h"

namespace spvsim::tools {

using values::formatElement;
using values::formatScalar;
using values::IntegerBase;
using values::jsonElement;
using values::loadBits;
using values::loadReal;
using values::storeBits;
using values::storeLiteral;
using values::storeReal;

}  // namespace spvsim::tools
