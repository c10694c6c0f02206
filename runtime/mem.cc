// Buffers and sub-buffers: creation flags, storage, queries, destructor callbacks.
// The host's memory is the device's, so a buffer's `data` is ordinary host memory
// (the application's own for CL_MEM_USE_HOST_PTR) that kernels and commands access.
#include "runtime/mem.h"

#include <bit>
#include <cstdlib>
#include <cstring>

#include "runtime/core_api.h"
#include "runtime/info_reply.h"

_cl_mem::~_cl_mem() {
  for (auto it = destructorCallbacks.rbegin(); it != destructorCallbacks.rend(); ++it)
    it->first(this, it->second);
  std::free(storage);
  if (parent) spvsim::rt::release(parent);
  spvsim::rt::release(context);
}

namespace spvsim::rt {
namespace {

constexpr cl_mem_flags kAccess = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostPtr =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
constexpr cl_mem_flags kHostAccess =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr size_t kBaseAlign = 128;  // CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes

bool validFlags(cl_mem_flags f) {
  if (f & ~(kAccess | kHostPtr | kHostAccess)) return false;
  if (std::popcount(f & kAccess) > 1 || std::popcount(f & kHostAccess) > 1) return false;
  return !((f & CL_MEM_USE_HOST_PTR) && (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)));
}

// The API spec: CL_INVALID_BUFFER_SIZE when host_ptr is an SVM allocation and size is
// more than was allocated. A pointer into the middle of an allocation is held to the
// bytes from it to the allocation's end: past them lies memory that is not the
// application's (a guard page here).
cl_int checkSvmHostPtr(_cl_context* c, size_t size, const void* host_ptr) {
  const auto block = c->svm.find(host_ptr);
  if (!block) return CL_SUCCESS;
  const uint64_t available =
      block->size - uint64_t(static_cast<const uint8_t*>(host_ptr) - block->base);
  return size > available ? CL_INVALID_BUFFER_SIZE : CL_SUCCESS;
}

cl_int checkCreate(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr) {
  if (!checked<_cl_context>(context, Kind::Context)) return CL_INVALID_CONTEXT;
  if (!validFlags(flags)) return CL_INVALID_VALUE;
  if (size == 0 || size > deviceCaps().maxMemAllocSize) return CL_INVALID_BUFFER_SIZE;
  bool wantsPtr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (wantsPtr != (host_ptr != nullptr)) return CL_INVALID_HOST_PTR;
  return host_ptr ? checkSvmHostPtr(static_cast<_cl_context*>(context), size, host_ptr)
                  : CL_SUCCESS;
}

// The owned, zeroed storage of a new buffer (deterministic contents before any write).
uint8_t* allocate(size_t size) {
  size_t rounded = (size + kBaseAlign - 1) / kBaseAlign * kBaseAlign;
  void* p = std::aligned_alloc(kBaseAlign, rounded);
  if (p) std::memset(p, 0, rounded);
  return static_cast<uint8_t*>(p);
}

cl_mem createBuffer(cl_context context, std::vector<cl_mem_properties> properties,
                    cl_mem_flags flags, size_t size, void* host_ptr, cl_int* errcode_ret) {
  if (cl_int err = checkCreate(context, flags, size, host_ptr))
    return withError<cl_mem>(errcode_ret, err, nullptr);
  uint8_t* storage = nullptr;
  if (!(flags & CL_MEM_USE_HOST_PTR)) {
    storage = allocate(size);
    if (!storage) return withError<cl_mem>(errcode_ret, CL_MEM_OBJECT_ALLOCATION_FAILURE, nullptr);
    if (flags & CL_MEM_COPY_HOST_PTR) std::memcpy(storage, host_ptr, size);
  }
  auto* m = registerObject(new _cl_mem);
  retain(context);
  m->context = context;
  m->flags = flags;
  m->size = size;
  m->storage = storage;
  m->hostPtr = (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : nullptr;
  m->data = storage ? storage : static_cast<uint8_t*>(host_ptr);
  m->properties = std::move(properties);
  m->contentsWritten = host_ptr != nullptr;  // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR
  return withError<cl_mem>(errcode_ret, CL_SUCCESS, m);
}

// A sub-buffer's flags: its own access flags where given (never wider than the
// parent's), the parent's otherwise, and always the parent's host-pointer flags.
cl_int subBufferFlags(cl_mem_flags parent, cl_mem_flags own, cl_mem_flags& out) {
  if (!validFlags(own) || (own & kHostPtr)) return CL_INVALID_VALUE;
  if ((parent & CL_MEM_WRITE_ONLY) && (own & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)))
    return CL_INVALID_VALUE;
  if ((parent & CL_MEM_READ_ONLY) && (own & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))
    return CL_INVALID_VALUE;
  if ((parent & CL_MEM_HOST_WRITE_ONLY) && (own & CL_MEM_HOST_READ_ONLY)) return CL_INVALID_VALUE;
  if ((parent & CL_MEM_HOST_READ_ONLY) && (own & CL_MEM_HOST_WRITE_ONLY)) return CL_INVALID_VALUE;
  if ((parent & CL_MEM_HOST_NO_ACCESS) && (own & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))
    return CL_INVALID_VALUE;
  out = own | (parent & kHostPtr);
  if (!(own & kAccess)) out |= parent & kAccess;
  if (!(own & kHostAccess)) out |= parent & kHostAccess;
  return CL_SUCCESS;
}

}  // namespace

bool usesSvmPointer(const _cl_mem* m) {
  if (!(rootOf(m)->flags & CL_MEM_USE_HOST_PTR)) return false;
  auto block = static_cast<_cl_context*>(m->context)->svm.find(m->data);
  return block && m->size <= block->size - uint64_t(m->data - block->base);
}

_cl_mem* validBuffer(cl_mem mem) {
  _cl_mem* m = checked<_cl_mem>(mem, Kind::Mem);
  return m && m->type == CL_MEM_OBJECT_BUFFER ? m : nullptr;
}

cl_int checkBufferCommand(cl_command_queue queue, cl_mem buffer) {
  _cl_command_queue* q = validQueue(queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  _cl_mem* m = validBuffer(buffer);
  if (!m) return CL_INVALID_MEM_OBJECT;
  return m->context == q->context ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

cl_mem clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                      cl_int* errcode_ret) {
  return createBuffer(context, {}, flags, size, host_ptr, errcode_ret);
}

// No buffer property is supported (OpenCL 3.0 defines none without extensions).
cl_mem clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                    cl_mem_flags flags, size_t size, void* host_ptr,
                                    cl_int* errcode_ret) {
  if (!checked<_cl_context>(context, Kind::Context))
    return withError<cl_mem>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  std::vector<cl_mem_properties> props;
  if (properties) {
    if (properties[0] != 0) return withError<cl_mem>(errcode_ret, CL_INVALID_PROPERTY, nullptr);
    props.push_back(0);
  }
  return createBuffer(context, std::move(props), flags, size, host_ptr, errcode_ret);
}

cl_mem clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                         cl_buffer_create_type buffer_create_type, const void* buffer_create_info,
                         cl_int* errcode_ret) {
  _cl_mem* parent = validBuffer(buffer);
  if (!parent || parent->parent)
    return withError<cl_mem>(errcode_ret, CL_INVALID_MEM_OBJECT, nullptr);
  cl_mem_flags own = 0;
  if (cl_int err = subBufferFlags(parent->flags, flags, own))
    return withError<cl_mem>(errcode_ret, err, nullptr);
  if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION || !buffer_create_info)
    return withError<cl_mem>(errcode_ret, CL_INVALID_VALUE, nullptr);
  auto region = *static_cast<const cl_buffer_region*>(buffer_create_info);
  if (region.size == 0) return withError<cl_mem>(errcode_ret, CL_INVALID_BUFFER_SIZE, nullptr);
  if (!inBounds(region.origin, region.size, parent->size))
    return withError<cl_mem>(errcode_ret, CL_INVALID_VALUE, nullptr);
  if (region.origin % kBaseAlign)
    return withError<cl_mem>(errcode_ret, CL_MISALIGNED_SUB_BUFFER_OFFSET, nullptr);
  auto* m = registerObject(new _cl_mem);
  retain(parent);
  retain(parent->context);
  m->context = parent->context;
  m->parent = parent;
  m->flags = own;
  m->size = region.size;
  m->origin = region.origin;
  m->data = parent->data + region.origin;
  m->hostPtr = parent->hostPtr ? static_cast<uint8_t*>(parent->hostPtr) + region.origin : nullptr;
  return withError<cl_mem>(errcode_ret, CL_SUCCESS, m);
}

cl_int clRetainMemObject(cl_mem memobj) {
  _cl_mem* m = checked<_cl_mem>(memobj, Kind::Mem);
  return m && retainHandle(m) ? CL_SUCCESS : CL_INVALID_MEM_OBJECT;
}

cl_int clReleaseMemObject(cl_mem memobj) {
  // Commands that still use it hold references of their own.
  _cl_mem* m = checked<_cl_mem>(memobj, Kind::Mem);
  return m && releaseHandle(m) ? CL_SUCCESS : CL_INVALID_MEM_OBJECT;
}

cl_int clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                          void* param_value, size_t* param_value_size_ret) {
  _cl_mem* m = checked<_cl_mem>(memobj, Kind::Mem);
  if (!m) return CL_INVALID_MEM_OBJECT;
  InfoReply r{param_value_size, param_value, param_value_size_ret};
  switch (param_name) {
    case CL_MEM_TYPE:
      return r.scalar(m->type);
    case CL_MEM_FLAGS:
      return r.scalar(m->flags);
    case CL_MEM_SIZE:
      return r.scalar(m->size);
    case CL_MEM_HOST_PTR:
      return r.scalar(m->hostPtr);
    case CL_MEM_MAP_COUNT: {
      std::lock_guard lock(m->mutex);
      return r.scalar(static_cast<cl_uint>(m->mappings.size()));
    }
    case CL_MEM_REFERENCE_COUNT:
      return r.scalar(m->refs.load());
    case CL_MEM_CONTEXT:
      return r.scalar(m->context);
    case CL_MEM_ASSOCIATED_MEMOBJECT:
      return r.scalar(static_cast<cl_mem>(m->parent));
    case CL_MEM_OFFSET:
      return r.scalar(m->origin);
    case CL_MEM_USES_SVM_POINTER:
      return r.boolean(usesSvmPointer(m));
    case CL_MEM_PROPERTIES:
      return r.vector(m->properties);
    default:
      return CL_INVALID_VALUE;
  }
}

cl_int clSetMemObjectDestructorCallback(cl_mem memobj, void(CL_CALLBACK* pfn_notify)(cl_mem, void*),
                                        void* user_data) {
  _cl_mem* m = checked<_cl_mem>(memobj, Kind::Mem);
  if (!m) return CL_INVALID_MEM_OBJECT;
  if (!pfn_notify) return CL_INVALID_VALUE;
  std::lock_guard lock(m->mutex);
  m->destructorCallbacks.emplace_back(pfn_notify, user_data);
  return CL_SUCCESS;
}

}  // namespace spvsim::rt
