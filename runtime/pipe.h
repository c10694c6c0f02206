// Pipe objects (clCreatePipe): cl_mem objects of type CL_MEM_OBJECT_PIPE whose packets
// live in a spvsim::PipeStorage (src/exec/pipe.h) that every kernel they are passed to
// shares, so packets written by one launch are read by a later one. The host never reads
// or writes them (OpenCL has no such commands): buffer commands refuse them.
#pragma once

#include "runtime/interfaces.h"

namespace spvsim::rt {

// The device's pipe limits (CL_DEVICE_PIPE_*, CL_DEVICE_MAX_PIPE_ARGS). spvsim keeps no
// per-work-item count of reservations: the limit it reports is one it never refuses.
inline constexpr cl_uint kPipeMaxPacketSize = 1024;
inline constexpr cl_uint kMaxPipeArgs = 16;
inline constexpr cl_uint kPipeMaxActiveReservations = 256;

// The handle as a live pipe, else nullptr.
_cl_mem* validPipe(cl_mem mem);

}  // namespace spvsim::rt
