// --arg SPEC: one kernel argument written on the command line (src/DESIGN.md "Command line").
#pragma once

#include <string>
#include <string_view>

#include "src/formats/image_shape.h"
#include "tools/cli/arg_value.h"

namespace spvsim::tools {

// Largest buffer an --arg may ask for.
inline constexpr uint64_t kMaxBufferBytes = formats::kMaxInputBytes;

// Parses one spec:
//   TYPE:V[,V...]          scalar or vector (char..double, half, size_t; vectors 2,3,4,8,16);
//                          a vector takes one value per component, or one for all
//   buffer:TYPE[N]=INIT    INIT: zero | fill(V) | range(START[,STEP]) | values(V,...) |
//                          random(SEED) | file(PATH); "=INIT" may be left out (zero)
//   buffer:ro:TYPE[N]=INIT, buffer:wo:TYPE[N]=INIT   created read-only / write-only
//   pipe:TYPE[N]=INIT      a pipe of N packets of TYPE; values(V,...) gives its first
//                          packets, other INITs fill all N, no "=INIT" leaves it empty
//   local:BYTES            local memory
//   null                   a NULL pointer
//   image2d:ORDER,TYPE[W,H]=INIT (image1d[W], image1d_array[W,N], image2d_array[W,H,N],
//                          image3d[W,H,D], image1d_buffer[W]), INIT as for buffers over the
//                          channel values; sampler:NORMALIZED,CLAMP,NEAREST (tools/image_arg.h)
// file(PATH) is read now, relative to the working
// directory. Throws Error(DiagnosticKind::InvalidArgument) quoting the spec, or
// Error(DiagnosticKind::OutOfMemory) when a buffer would take `memory` past its limit (checked
// before allocating).
ArgValue parseArgSpec(std::string_view spec, ArgMemory* memory = nullptr);

// The PATH of a buffer, pipe or image spec's "=file(PATH)" initializer, or "" (the file
// parseArgSpec would read).
std::string fileInitializerPath(std::string_view spec);

}  // namespace spvsim::tools
