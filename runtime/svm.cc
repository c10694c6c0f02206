// Shared virtual memory: coarse- and fine-grained buffer SVM (CL_DEVICE_SVM_CAPABILITIES).
// Each context's allocations come from its SvmHeap (src/exec/svm_heap.h), at host
// addresses kernels can dereference as they are; every launch binds all live allocations
// of its context (src/exec/svm.h), which is what fine-grained buffers require and covers
// CL_KERNEL_EXEC_INFO_SVM_PTRS. The device's memory is the host's: map, unmap and
// migrate copy nothing, but run as commands so that wait lists and events order them.
// Every command checks the SVM-side ranges it names against the allocation table (the
// heap's window holds nothing else, so a pointer there outside a live allocation is
// freed or past one): an error instead of a host fault.
// SVM atomics (CL_MEM_SVM_ATOMICS) and fine-grained system SVM are not offered.
#include <cstring>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "runtime/core_api.h"
#include "runtime/kernel.h"
#include "runtime/queue.h"

namespace spvsim::rt {
namespace {

constexpr cl_svm_mem_flags kAccess = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
// The largest alignment clSVMAlloc grants (a page is what the heap aligns blocks to;
// more is granted too, up to this).
constexpr cl_uint kMaxAlignment = 1u << 20;
// CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes: the default alignment (alignment 0).
constexpr cl_uint kDefaultAlignment = 128;

bool validSvmFlags(cl_svm_mem_flags f) {
  if (f & ~(kAccess | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS)) return false;
  const cl_svm_mem_flags access = f & kAccess;
  return access == 0 || (access & (access - 1)) == 0;
}

_cl_context* contextOfQueue(cl_command_queue q) {
  return static_cast<_cl_context*>(queueContext(q));
}

using Placement = SvmHeap::Placement;

// The range a command names on the SVM side, checked against the context's allocations
// before it is queued. A range partly or wholly in the heap's window but not inside one
// live allocation (past an allocation's end, freed memory) is CL_INVALID_VALUE. A range
// wholly outside the window is memory spvsim knows nothing of: the host side of a copy
// (the spec allows host memory there), or another context's allocation, which the spec
// leaves undefined; it is used as given.
bool strays(_cl_context* c, const void* p, size_t size) {
  return c->svm.place(p, size) == Placement::Stray;
}

// Inside one live allocation: a range of a command on SVM memory alone (migration).
bool inAllocation(_cl_context* c, const void* p, size_t size) {
  return c->svm.place(p, size) == Placement::InBlock;
}

bool validPatternSize(size_t n) { return n && n <= 128 && (n & (n - 1)) == 0; }

// Whether [a, a + size) and [b, b + size) share a byte (neither range wraps: checked).
bool overlap(const void* a, const void* b, size_t size) {
  const uintptr_t x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + size && y < x + size;
}

// A copy or fill runs on the queue's thread, perhaps after a clEnqueueSVMFree queued
// before it (or a clSVMFree on another thread) took its allocation: it runs only while
// its ranges are still placed, and otherwise fails (its event's status) untouched.
cl_int runPlaced(_cl_context* c, std::initializer_list<SvmHeap::Range> ranges,
                 const std::function<void()>& use) {
  return c->svm.whilePlaced(ranges, use) ? CL_COMPLETE : CL_INVALID_VALUE;
}

// What clEnqueueSVMFree frees: without a callback, live allocations it frees itself (by
// serial, so that a block allocated at the same base after the command was queued is
// not freed for it); with one, also pointers outside the window the callback owns.
cl_int pointersToFree(_cl_context* c, cl_uint n, void* const* pointers, bool callback,
                      std::vector<std::pair<void*, uint64_t>>& out) {
  for (cl_uint i = 0; i < n; ++i) {
    void* p = pointers[i];
    if (!p) continue;  // as clSVMFree: nothing to do
    const auto block = c->svm.find(p);
    if (block && block->base == p) {
      out.emplace_back(p, block->serial);
      continue;
    }
    // Freed memory, or a pointer into an allocation rather than to it: never what
    // clSVMAlloc returned.
    if (!callback || c->svm.place(p, 1) != Placement::Elsewhere) return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

}  // namespace

void* clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
  auto* c = checked<_cl_context>(context, Kind::Context);
  if (!c || !validSvmFlags(flags)) return nullptr;
  if (flags & CL_MEM_SVM_ATOMICS) return nullptr;  // not in CL_DEVICE_SVM_CAPABILITIES
  if (size == 0 || size > deviceCaps().maxMemAllocSize) return nullptr;
  if (alignment & (alignment - 1) || alignment > kMaxAlignment) return nullptr;
  return c->svm.allocate(size, alignment ? alignment : kDefaultAlignment, flags);
}

void clSVMFree(cl_context context, void* svm_pointer) {
  auto* c = checked<_cl_context>(context, Kind::Context);
  if (c && svm_pointer) c->svm.free(svm_pointer);
}

cl_int clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
                        void* svm_pointers[],
                        void(CL_CALLBACK* pfn_free_func)(cl_command_queue queue,
                                                         cl_uint num_svm_pointers,
                                                         void* svm_pointers[], void* user_data),
                        void* user_data, cl_uint num_events_in_wait_list,
                        const cl_event* event_wait_list, cl_event* event) {
  if (!validQueue(command_queue)) return CL_INVALID_COMMAND_QUEUE;
  if ((num_svm_pointers == 0) != (svm_pointers == nullptr)) return CL_INVALID_VALUE;
  _cl_context* c = contextOfQueue(command_queue);
  auto owned = std::make_shared<std::vector<std::pair<void*, uint64_t>>>();
  if (cl_int err =
          pointersToFree(c, num_svm_pointers, svm_pointers, pfn_free_func != nullptr, *owned))
    return err;
  auto pointers =
      std::make_shared<std::vector<void*>>(svm_pointers, svm_pointers + num_svm_pointers);
  auto run = [=] {
    if (pfn_free_func)
      pfn_free_func(command_queue, num_svm_pointers, pointers->data(), user_data);
    else
      for (auto [p, serial] : *owned) c->svm.free(p, serial);
    return CL_COMPLETE;
  };
  return enqueue(command_queue, CL_COMMAND_SVM_FREE, num_events_in_wait_list, event_wait_list,
                 event, run);
}

cl_int clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void* dst_ptr,
                          const void* src_ptr, size_t size, cl_uint num_events_in_wait_list,
                          const cl_event* event_wait_list, cl_event* event) {
  if (!validQueue(command_queue)) return CL_INVALID_COMMAND_QUEUE;
  if (!dst_ptr || !src_ptr) return CL_INVALID_VALUE;
  _cl_context* c = contextOfQueue(command_queue);
  if (strays(c, dst_ptr, size) || strays(c, src_ptr, size)) return CL_INVALID_VALUE;
  if (overlap(dst_ptr, src_ptr, size)) return CL_MEM_COPY_OVERLAP;
  auto run = [=] {
    return runPlaced(c, {{dst_ptr, size}, {src_ptr, size}},
                     [&] { std::memcpy(dst_ptr, src_ptr, size); });
  };
  return enqueue(command_queue, CL_COMMAND_SVM_MEMCPY, num_events_in_wait_list, event_wait_list,
                 event, run, blocking_copy);
}

cl_int clEnqueueSVMMemFill(cl_command_queue command_queue, void* svm_ptr, const void* pattern,
                           size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                           const cl_event* event_wait_list, cl_event* event) {
  if (!validQueue(command_queue)) return CL_INVALID_COMMAND_QUEUE;
  if (!svm_ptr || !pattern || !validPatternSize(pattern_size) || size % pattern_size ||
      reinterpret_cast<uintptr_t>(svm_ptr) % pattern_size)
    return CL_INVALID_VALUE;
  _cl_context* c = contextOfQueue(command_queue);
  if (strays(c, svm_ptr, size)) return CL_INVALID_VALUE;
  auto bytes = std::make_shared<std::vector<uint8_t>>(
      static_cast<const uint8_t*>(pattern), static_cast<const uint8_t*>(pattern) + pattern_size);
  auto run = [=] {
    return runPlaced(c, {{svm_ptr, size}}, [&] {
      auto* out = static_cast<uint8_t*>(svm_ptr);
      for (size_t at = 0; at < size; at += pattern_size)
        std::memcpy(out + at, bytes->data(), pattern_size);
    });
  };
  return enqueue(command_queue, CL_COMMAND_SVM_MEMFILL, num_events_in_wait_list, event_wait_list,
                 event, run);
}

cl_int clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags flags,
                       void* svm_ptr, size_t size, cl_uint num_events_in_wait_list,
                       const cl_event* event_wait_list, cl_event* event) {
  if (!validQueue(command_queue)) return CL_INVALID_COMMAND_QUEUE;
  if (!svm_ptr || size == 0 ||
      (flags & ~(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) ||
      ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
    return CL_INVALID_VALUE;
  if (strays(contextOfQueue(command_queue), svm_ptr, size)) return CL_INVALID_VALUE;
  return enqueue(
      command_queue, CL_COMMAND_SVM_MAP, num_events_in_wait_list, event_wait_list, event,
      [] { return CL_COMPLETE; }, blocking_map);
}

cl_int clEnqueueSVMUnmap(cl_command_queue command_queue, void* svm_ptr,
                         cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                         cl_event* event) {
  if (!validQueue(command_queue)) return CL_INVALID_COMMAND_QUEUE;
  // Unmap names no size: the pointer's first byte is what a map covered.
  if (!svm_ptr || strays(contextOfQueue(command_queue), svm_ptr, 1)) return CL_INVALID_VALUE;
  return enqueue(command_queue, CL_COMMAND_SVM_UNMAP, num_events_in_wait_list, event_wait_list,
                 event, [] { return CL_COMPLETE; });
}

cl_int clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                              const void** svm_pointers, const size_t* sizes,
                              cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                              const cl_event* event_wait_list, cl_event* event) {
  if (!validQueue(command_queue)) return CL_INVALID_COMMAND_QUEUE;
  if (num_svm_pointers == 0 || !svm_pointers) return CL_INVALID_VALUE;
  if (flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return CL_INVALID_VALUE;
  _cl_context* c = contextOfQueue(command_queue);
  for (cl_uint i = 0; i < num_svm_pointers; ++i) {
    if (!svm_pointers[i]) return CL_INVALID_VALUE;
    // A size of 0 means the whole allocation the pointer points into: its byte must be in one.
    const size_t size = sizes && sizes[i] ? sizes[i] : 1;
    if (!inAllocation(c, svm_pointers[i], size)) return CL_INVALID_VALUE;
  }
  return enqueue(command_queue, CL_COMMAND_SVM_MIGRATE_MEM, num_events_in_wait_list,
                 event_wait_list, event, [] { return CL_COMPLETE; });
}

cl_int clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void* arg_value) {
  _cl_kernel* k = checked<_cl_kernel>(kernel, Kind::Kernel);
  if (!k) return CL_INVALID_KERNEL;
  if (arg_index >= k->args.size()) return CL_INVALID_ARG_INDEX;
  const spirv::ParamSignature& p = k->kernel.signature().params[arg_index];
  if (p.kind != spirv::ParamKind::GlobalPointer && p.kind != spirv::ParamKind::ConstantPointer)
    return CL_INVALID_ARG_INDEX;
  // Anywhere inside an allocation of the kernel's context, or NULL.
  auto* c = static_cast<_cl_context*>(k->program->context);
  if (arg_value && !c->svm.find(arg_value)) return CL_INVALID_ARG_VALUE;
  KernelArg arg;
  arg.binding = arg_value ? ArgBinding::svmPointer(arg_value) : ArgBinding::null();
  arg.set = true;
  std::lock_guard<std::mutex> lock(k->mutex);
  k->args[arg_index] = std::move(arg);
  return CL_SUCCESS;
}

// Every launch binds all of the context's allocations, so the list of pointers a kernel
// reaches indirectly (CL_KERNEL_EXEC_INFO_SVM_PTRS) is checked and needs nothing more.
cl_int clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                           size_t param_value_size, const void* param_value) {
  _cl_kernel* k = checked<_cl_kernel>(kernel, Kind::Kernel);
  if (!k) return CL_INVALID_KERNEL;
  if (!param_value && param_value_size > 0) return CL_INVALID_VALUE;
  switch (param_name) {
    case CL_KERNEL_EXEC_INFO_SVM_PTRS: {
      // An empty set (0, NULL) clears the list: valid, and as the list, nothing to keep.
      if (param_value_size % sizeof(void*)) return CL_INVALID_VALUE;
      auto* c = static_cast<_cl_context*>(k->program->context);
      auto* ptrs = static_cast<void* const*>(param_value);
      for (size_t i = 0; i < param_value_size / sizeof(void*); ++i)
        if (ptrs[i] && !c->svm.find(ptrs[i])) return CL_INVALID_VALUE;
      return CL_SUCCESS;
    }
    case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM: {
      if (param_value_size != sizeof(cl_bool)) return CL_INVALID_VALUE;
      // No fine-grained system SVM (CL_DEVICE_SVM_CAPABILITIES).
      return *static_cast<const cl_bool*>(param_value) ? CL_INVALID_OPERATION : CL_SUCCESS;
    }
    default:
      return CL_INVALID_VALUE;
  }
}

}  // namespace spvsim::rt
