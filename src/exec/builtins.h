// Built-in variables: which SPIR-V BuiltIns spvsim provides and each lane's values.
//
// A kernel reads built-ins through loads, which lowering turns into built-in reads
// (src/exec/ops/builtin_read.cc) that compute the values straight into the result
// register. A built-in variable whose pointer is used otherwise (passed, cast, stored)
// also gets its private-memory copy written at each sub-group start (BuiltinSlot::inMemory).
#pragma once

#include "spirv/module.h"
#include "src/exec/lowered.h"
#include "src/exec/subgroup.h"

namespace spvsim {

// Fills `slot` for a BuiltIn variable whose pointee type is `type`; false if
// unsupported.
bool describeBuiltin(spv::BuiltIn builtin, const spirv::Type& type, BuiltinSlot& slot);

// Component `c` of built-in `b` in each live lane l of `sg`: out[l], l < sg.liveLanes.
// Local ids count up from the sub-group's first one: no division per lane.
void builtinColumn(const SubGroup& sg, Builtin b, uint32_t c, uint64_t* out);

// Whether component `c` of built-in `b` is base + l * step in every live lane l of `sg`
// (uniform built-ins: step 0; ids of lanes within one row of the work-group: step 1).
bool builtinAffine(const SubGroup& sg, Builtin b, uint32_t c, uint64_t& base, uint64_t& step);
// The same for components [c, c + n): base[k] and step[k] for component c + k, the
// sub-group's position in its work-group worked out once (a vec3 load of an id).
bool builtinAffine(const SubGroup& sg, Builtin b, uint32_t c, uint32_t n, uint64_t* base,
                   uint64_t* step);

// Writes the built-ins' values for every live lane into the lanes' private memory: those
// with a private copy (BuiltinSlot::inMemory), or every one when `all`.
void writeBuiltins(SubGroup& sg, const LoweredKernel& kernel, bool all);

}  // namespace spvsim
