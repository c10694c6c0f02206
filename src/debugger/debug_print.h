// Text forms of what `spvsim debug` shows: lane sets, active masks, typed values and
// pointers. Pure functions of their inputs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "spirv/module.h"
#include "src/exec/lane_mask.h"

namespace spvsim::debugger {

// "0-3,8" (ascending ranges), or "none".
std::string formatLaneList(const LaneMask& lanes);

// "lanes 0-3,8 active (5/16)  [####....#.......]": the active lanes of the `live` lanes
// of a sub-group, then one character per lane (# active, . inactive), 8 to a group.
std::string formatActiveMask(const LaneMask& active, uint32_t live);

// How `print` shows numbers: natural (integers signed when the source type is signed,
// else unsigned), or forced hexadecimal, signed or unsigned decimal (print/x, /d, /u).
struct ValueStyle {
  char format = 0;  // 0, 'x', 'd', 'u'
  bool isSigned = false;
};

// Names a pointer value ("global:out+16"); supplied by the session, which knows regions.
using PointerNamer = std::function<std::string(uint64_t)>;

// One value of SPIR-V type `type` stored at `bytes` (OpenCL C layout): scalars, vectors
// "(1,2,3,4)", arrays and structs "{1, 2, 3}" (long arrays shortened), booleans,
// pointers through `namer`.
std::string formatValue(const spirv::Module& module, spirv::Id type, const uint8_t* bytes,
                        const ValueStyle& style, const PointerNamer& namer);

// A pointer without region names: "null", "global:2+0x10", or the raw bits.
std::string formatRawPointer(uint64_t pointer);

}  // namespace spvsim::debugger
