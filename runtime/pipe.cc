// clCreatePipe and clGetPipeInfo (OpenCL 3.0 API, "Pipes").
#include "runtime/pipe.h"

#include <new>

#include "runtime/core_api.h"
#include "runtime/info_reply.h"
#include "src/exec/pipe.h"

namespace spvsim::rt {
namespace {

// "Only CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS can be specified"; 0 means both.
constexpr cl_mem_flags kPipeFlags = CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS;

cl_int checkCreate(cl_context context, cl_mem_flags flags, cl_uint packetSize, cl_uint maxPackets,
                   const cl_pipe_properties* properties) {
  if (!checked<_cl_context>(context, Kind::Context)) return CL_INVALID_CONTEXT;
  if ((flags & ~kPipeFlags) || (properties && properties[0] != 0)) return CL_INVALID_VALUE;
  if (packetSize == 0 || packetSize > kPipeMaxPacketSize || maxPackets == 0)
    return CL_INVALID_PIPE_SIZE;
  if (uint64_t(packetSize) * maxPackets > deviceCaps().maxMemAllocSize)
    return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  return CL_SUCCESS;
}

}  // namespace

_cl_mem* validPipe(cl_mem mem) {
  _cl_mem* m = checked<_cl_mem>(mem, Kind::Mem);
  return m && m->type == CL_MEM_OBJECT_PIPE ? m : nullptr;
}

cl_mem clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
                    cl_uint pipe_max_packets, const cl_pipe_properties* properties,
                    cl_int* errcode_ret) {
  if (cl_int err = checkCreate(context, flags, pipe_packet_size, pipe_max_packets, properties))
    return withError<cl_mem>(errcode_ret, err, nullptr);
  std::shared_ptr<PipeStorage> storage;
  try {
    storage = std::make_shared<PipeStorage>(pipe_packet_size, pipe_max_packets);
  } catch (const std::bad_alloc&) {
    return withError<cl_mem>(errcode_ret, CL_MEM_OBJECT_ALLOCATION_FAILURE, nullptr);
  }
  auto* m = registerObject(new _cl_mem);
  retain(context);
  m->context = context;
  m->type = CL_MEM_OBJECT_PIPE;
  m->flags = flags ? flags : kPipeFlags;
  m->size = size_t(pipe_packet_size) * pipe_max_packets;
  m->pipe = std::move(storage);
  // CL_PIPE_PROPERTIES: "if properties is NULL, param_value_size_ret is 0"; a list
  // given is kept as given (only its terminator is valid).
  if (properties) m->properties.push_back(0);
  return withError<cl_mem>(errcode_ret, CL_SUCCESS, m);
}

cl_int clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size,
                     void* param_value, size_t* param_value_size_ret) {
  _cl_mem* m = validPipe(pipe);
  if (!m) return CL_INVALID_MEM_OBJECT;
  InfoReply r{param_value_size, param_value, param_value_size_ret};
  switch (param_name) {
    case CL_PIPE_PACKET_SIZE:
      return r.scalar(cl_uint{m->pipe->packetSize});
    case CL_PIPE_MAX_PACKETS:
      return r.scalar(cl_uint{m->pipe->maxPackets});
    case CL_PIPE_PROPERTIES: {
      std::vector<cl_pipe_properties> props(m->properties.begin(), m->properties.end());
      return r.vector(props);
    }
    default:
      return CL_INVALID_VALUE;
  }
}

}  // namespace spvsim::rt
