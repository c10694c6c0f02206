// Device-side enqueue (OpenCL 2.0): OpGetDefaultQueue, OpBuildNDRange, OpEnqueueKernel,
// OpEnqueueMarker, the device event instructions and the kernel queries
// (OpGetKernel*). Commands and events live in the launch's DeviceEnqueueState
// (src/exec/device_enqueue.h); the enqueued kernels run after the launch.
//
// Every lane is one work-item calling the built-in: lanes act one at a time, in lane
// order, so the commands of a work-group are recorded in a deterministic order.
// Problems a return code reports (CLK_INVALID_QUEUE, ...) are not diagnostics; misused
// events (undefined behaviour) and unreadable operands are.
#include "src/exec/device_enqueue.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>

#include "spirv/error.h"
#include "src/exec/lowering.h"
#include "src/exec/memory_limit.h"
#include "src/exec/ndrange_check.h"
#include "src/exec/subgroup.h"

namespace spvsim {
namespace {

using spv::Op;

// Where ndrange_t's members are (OpBuildNDRange's result type, OpEnqueueKernel's
// pointee): workDimension, globalWorkOffset[3], globalWorkSize[3], localWorkSize[3].
struct NdrangeLayout {
  uint32_t dims = 0, offset = 0, global = 0, local = 0, bytes = 0;
};

NdrangeLayout ndrangeLayout(Lowerer& lw, const spirv::Instruction& inst, spirv::Id typeId) {
  const spirv::Type& t = lw.type(typeId);
  if (t.kind != spirv::TypeKind::Struct || t.memberOffsets.size() != 4)
    lw.unsupported(inst, "an ndrange_t that is not a struct of 4 members");
  return {uint32_t(t.memberOffsets[0]), uint32_t(t.memberOffsets[1]), uint32_t(t.memberOffsets[2]),
          uint32_t(t.memberOffsets[3]), uint32_t(t.size)};
}

spirv::Id pointee(Lowerer& lw, spirv::Id pointer) {
  return lw.type(lw.typeIdOfValue(pointer)).element;
}

LaneMask laneOf(uint32_t l) {
  LaneMask m;
  m.set(l);
  return m;
}

void reportLane(SubGroup& sg, const Inst& in, uint32_t l, std::string message) {
  sg.report(in, DiagnosticKind::DeviceEnqueue, std::move(message), laneOf(l));
}

// A limit of spvsim's, not the device's: lane l's work-group stops (its later lanes do
// not act: runEnqueueKernel and runEnqueueMarker test `aborted`).
void fatalLane(SubGroup& sg, const Inst& in, uint32_t l, std::string message) {
  reportLane(sg, in, l, std::move(message));
  sg.wg->aborted = true;
  sg.state = SubGroupState::Done;
}

// `bytes` readable (or writable) bytes at lane l's pointer in register `reg`; nullptr
// after reporting the access error.
uint8_t* access(SubGroup& sg, const Inst& in, uint32_t reg, uint32_t l, uint64_t bytes,
                bool write) {
  const uint64_t* ptrs = sg.reg<uint64_t>(reg);
  AccessError e = AccessError::Ok;
  uint8_t* host = sg.resolve(ptrs[l], l, bytes, write, e);
  if (!host) sg.reportAccess(in, e, laneOf(l), ptrs, bytes, write);
  return host;
}

DeviceEnqueueState* stateOf(SubGroup& sg, const Inst& in, uint32_t l) {
  DeviceEnqueueState* s = sg.wg->launch->enqueue;
  if (!s) reportLane(sg, in, l, "device-side enqueue does not run in this front end");
  return s;
}

const spirv::EntryPoint& entryOf(const SubGroup& sg, uint32_t index) {
  return sg.wg->launch->module->entryPoints[index];
}

// ---- OpGetDefaultQueue, OpBuildNDRange -------------------------------------------------

void getDefaultQueue(SubGroup& sg, const Inst& in) {
  const DeviceEnqueueState* s = sg.wg->launch->enqueue;
  const uint64_t q = s ? s->options().defaultQueue : 0;
  sg.forActive([&](uint32_t l) { sg.reg<uint64_t>(in.r)[l] = q; });
}

// Inst: a, b, c = global size, local size, offset (size_t or size_t[n]); n = dimensions;
// aux = extra: the result's NdrangeLayout.
void buildNdrange(SubGroup& sg, const Inst& in) {
  const uint32_t* x = sg.extra + in.aux;
  const uint32_t bytes = x[4], n = in.n;
  sg.forActive([&](uint32_t l) {
    uint8_t* out = sg.reg<uint8_t>(in.r) + uint64_t(l) * bytes;
    std::memset(out, 0, bytes);
    std::memcpy(out + x[0], &n, 4);
    std::memcpy(out + x[1], sg.reg<uint8_t>(in.c) + uint64_t(l) * n * 8, n * 8);
    std::memcpy(out + x[2], sg.reg<uint8_t>(in.a) + uint64_t(l) * n * 8, n * 8);
    std::memcpy(out + x[3], sg.reg<uint8_t>(in.b) + uint64_t(l) * n * 8, n * 8);
  });
}

void lowerBuildNdrange(Lowerer& lw, const spirv::Instruction& inst) {
  const spirv::Type& g = lw.typeOfValue(Lowerer::operand(inst, 0));
  const uint32_t dims = g.kind == spirv::TypeKind::Array ? uint32_t(g.count) : 1;
  for (int i = 0; i < 3; ++i)
    if (lw.typeOfValue(Lowerer::operand(inst, i)).size != dims * 8 || dims < 1 || dims > 3)
      lw.unsupported(inst, "sizes that are not 64-bit size_t (or arrays of 2 or 3 of them)");
  const NdrangeLayout nd = ndrangeLayout(lw, inst, inst.resultType);
  const uint32_t a = lw.reg(Lowerer::operand(inst, 0)), b = lw.reg(Lowerer::operand(inst, 1)),
                 c = lw.reg(Lowerer::operand(inst, 2));
  const uint32_t aux = lw.addExtra({nd.dims, nd.offset, nd.global, nd.local, nd.bytes});
  Inst& in = lw.emit(inst, &buildNdrange);
  in.a = a;
  in.b = b;
  in.c = c;
  in.n = dims;
  in.aux = aux;
}

// Lane l's ndrange_t behind the pointer in register `reg` (layout at extra[at]), checked
// for `kernel` (the local size chosen when none is given); nullopt when it is not valid.
std::optional<NDRange> readNdrange(SubGroup& sg, const Inst& in, uint32_t reg, const uint32_t* x,
                                   uint32_t l, const spirv::EntryPoint& kernel) {
  const uint8_t* p = access(sg, in, reg, l, x[4], false);
  if (!p) return std::nullopt;
  NDRange r;
  std::memcpy(&r.dims, p + x[0], 4);
  if (r.dims < 1 || r.dims > 3) return std::nullopt;
  std::memcpy(r.offset.data(), p + x[1], 24);
  std::memcpy(r.global.data(), p + x[2], 24);
  std::memcpy(r.local.data(), p + x[3], 24);
  for (uint32_t d = r.dims; d < 3; ++d) r.global[d] = r.local[d] = 1, r.offset[d] = 0;
  uint32_t zeros = 0;
  for (uint32_t d = 0; d < r.dims; ++d) zeros += r.local[d] == 0;
  if (zeros != 0 && zeros != r.dims) return std::nullopt;  // some local sizes given
  r.localGiven = zeros == 0;
  try {
    return checkRange(kernel, r, kDeviceMaxWorkGroupSize);  // the device's limit
  } catch (const Error&) {
    return std::nullopt;
  }
}

// ---- OpEnqueueKernel, OpEnqueueMarker --------------------------------------------------

// The operands both take: queue, event count, wait list, returned event (registers).
struct QueueOperands {
  uint32_t queue, numEvents, waits, ret;
};

// Lane l's wait list, or nullopt when it is not valid (CLK_INVALID_EVENT_WAIT_LIST).
std::optional<std::vector<uint64_t>> readWaits(SubGroup& sg, const Inst& in, DeviceEnqueueState& s,
                                               const QueueOperands& q, uint32_t l) {
  const uint32_t n = sg.reg<uint32_t>(q.numEvents)[l];
  const uint64_t list = sg.reg<uint64_t>(q.waits)[l];
  if ((n == 0) != (list == 0) || n > kMaxWaitListEvents) return std::nullopt;
  std::vector<uint64_t> waits(n);
  if (n == 0) return waits;
  const uint8_t* p = access(sg, in, q.waits, l, uint64_t(n) * 8, false);
  if (!p) return std::nullopt;
  std::memcpy(waits.data(), p, uint64_t(n) * 8);
  for (uint64_t e : waits)
    if (!s.isValid(e)) return std::nullopt;
  return waits;
}

// Checks the queue and wait list, takes a queue place and gives the command its event
// (written to the returned-event pointer if there is one); then records it.
int32_t submit(SubGroup& sg, const Inst& in, DeviceEnqueueState& s, const QueueOperands& q,
               uint32_t l, EnqueuedCommand c) {
  c.queue = sg.reg<uint64_t>(q.queue)[l];
  if (!s.options().find(c.queue)) return kClkInvalidQueue;
  auto waits = readWaits(sg, in, s, q, l);
  if (!waits) return kClkInvalidEventWaitList;
  c.waits = std::move(*waits);
  uint8_t* ret = nullptr;
  if (sg.reg<uint64_t>(q.ret)[l] != 0 && !(ret = access(sg, in, q.ret, l, 8, true)))
    return kClkEventAllocationFailure;
  c.event = s.createEvent(false);
  if (c.event == kNullEvent) return kClkEventAllocationFailure;
  switch (s.reserve(c.queue)) {
    case DeviceEnqueueState::Reservation::Taken:
      break;
    case DeviceEnqueueState::Reservation::QueueFull:
      s.forget(c.event);
      sg.report(in, DiagnosticKind::DeviceEnqueue,
                fmt::format("device queue full: the command was not enqueued "
                            "(CLK_DEVICE_QUEUE_FULL; the queue holds {} outstanding commands)",
                            s.options().find(c.queue)->size / kDeviceQueueCommandBytes),
                laneOf(l), Severity::Warning);
      return kClkDeviceQueueFull;
    case DeviceEnqueueState::Reservation::TreeBound:
      s.forget(c.event);
      fatalLane(sg, in, l,
                fmt::format("the host launch and the kernels it enqueued have enqueued {} "
                            "commands, spvsim's bound for one host launch (a kernel that "
                            "enqueues itself without end?); raise it with "
                            "--max-device-enqueues (spvsim) or SPVSIM_MAX_DEVICE_ENQUEUES "
                            "(OpenCL ICD)",
                            s.options().maxEnqueues));
      return kClkEnqueueFailure;
  }
  if (ret)
    std::memcpy(ret, &c.event, 8);
  else
    s.release(c.event);  // no one holds it: it only tracks the command
  c.parent = sg.wg->launch->kernelName;
  c.subGroupSize = sg.width;
  s.record(std::move(c), sg.wg->linearId);
  return kClkSuccess;
}

// Whether a child's local memory (its variables and its local arguments) fits in the
// device's CL_DEVICE_LOCAL_MEM_SIZE; if not, enqueue_kernel fails with
// CLK_OUT_OF_RESOURCES ("insufficient resources needed to execute the kernel"), as the
// ICD's clEnqueueNDRangeKernel does with CL_OUT_OF_RESOURCES, and nothing is allocated.
bool localMemoryFits(SubGroup& sg, const Inst& in, uint32_t l, uint64_t staticBytes,
                     const std::vector<uint64_t>& sizes) {
  uint64_t total = staticBytes;
  for (uint64_t bytes : sizes) total = addBytes(total, bytes);
  if (total <= kDeviceLocalMemSize) return true;
  sg.report(in, DiagnosticKind::DeviceEnqueue,
            fmt::format("the enqueued kernel would take {} of local memory, more than the "
                        "device's {} (CL_DEVICE_LOCAL_MEM_SIZE): the kernel was not enqueued "
                        "(CLK_OUT_OF_RESOURCES)",
                        formatBytes(total), formatBytes(kDeviceLocalMemSize)),
            laneOf(l), Severity::Warning);
  return false;
}

// Inst: r = result; aux = extra: [kernel entry index, queue, flags, ndrange, numEvents,
// waits, ret, param, paramSize, locals count, (local size reg, is pointer)*, then the
// ndrange's layout (5 words), the child's static local bytes].
int32_t enqueueKernel(SubGroup& sg, const Inst& in, DeviceEnqueueState& s, uint32_t l) {
  const uint32_t* x = sg.extra + in.aux;
  const uint32_t locals = x[9];
  const spirv::EntryPoint& kernel = entryOf(sg, x[0]);
  if (sg.reg<uint32_t>(x[2])[l] > 2) return kClkEnqueueFailure;  // not a CLK_ENQUEUE_FLAGS_*
  EnqueuedCommand c;
  c.kernel = &kernel;
  auto range = readNdrange(sg, in, x[3], x + 10 + 2 * locals, l, kernel);
  if (!range) return kClkInvalidNdrange;
  c.range = *range;
  for (uint32_t i = 0; i < locals; ++i) {
    uint64_t bytes = sg.reg<uint32_t>(x[10 + 2 * i])[l];
    if (x[11 + 2 * i]) {  // llvm-spirv passes a pointer to the size_t
      const uint8_t* p = access(sg, in, x[10 + 2 * i], l, 8, false);
      if (!p) return kClkInvalidArgSize;
      std::memcpy(&bytes, p, 8);
    }
    if (bytes == 0) return kClkInvalidArgSize;
    c.localSizes.push_back(bytes);
  }
  if (!localMemoryFits(sg, in, l, x[10 + 2 * locals + 5], c.localSizes)) return kClkOutOfResources;
  const uint32_t size = sg.reg<uint32_t>(x[8])[l];
  const uint8_t* literal = access(sg, in, x[7], l, size, false);
  if (!literal) return kClkInvalidArgSize;
  c.literal.assign(literal, literal + size);
  return submit(sg, in, s, QueueOperands{x[1], x[4], x[5], x[6]}, l, std::move(c));
}

void runEnqueueKernel(SubGroup& sg, const Inst& in) {
  sg.forActive([&](uint32_t l) {
    if (sg.wg->aborted) return;
    DeviceEnqueueState* s = stateOf(sg, in, l);
    sg.reg<int32_t>(in.r)[l] = s ? enqueueKernel(sg, in, *s, l) : kClkInvalidQueue;
  });
}

// Inst: r = result; aux = extra: [queue, numEvents, waits, ret].
void runEnqueueMarker(SubGroup& sg, const Inst& in) {
  const uint32_t* x = sg.extra + in.aux;
  sg.forActive([&](uint32_t l) {
    if (sg.wg->aborted) return;
    DeviceEnqueueState* s = stateOf(sg, in, l);
    int32_t code = kClkInvalidQueue;
    if (s && sg.reg<uint32_t>(x[1])[l] == 0)
      code = kClkInvalidEventWaitList;  // a marker waits for at least one event
    else if (s) {
      EnqueuedCommand c;
      c.marker = true;
      code = submit(sg, in, *s, QueueOperands{x[0], x[1], x[2], x[3]}, l, std::move(c));
    }
    sg.reg<int32_t>(in.r)[l] = code;
  });
}

const spirv::EntryPoint& invokeEntry(Lowerer& lw, const spirv::Instruction& inst, spirv::Id fn,
                                     uint32_t& index) {
  const spirv::EntryPoint* ep = invokeKernel(lw.module, fn);
  if (!ep)
    lw.unsupported(
        inst, "an invoke function that no kernel entry point runs (" + lw.module.nameOf(fn) + ")");
  index = uint32_t(ep - lw.module.entryPoints.data());  // position, for entryOf
  return *ep;
}

void require32(Lowerer& lw, const spirv::Instruction& inst, spirv::Id id, const char* what) {
  if (lw.typeOfValue(id).kind != spirv::TypeKind::Int || lw.typeOfValue(id).size != 4)
    lw.unsupported(inst, std::string("a ") + what + " that is not a 32-bit integer");
}

void lowerEnqueueKernel(Lowerer& lw, const spirv::Instruction& inst) {
  // A Physical32 block literal holds 32-bit captures and size_t local sizes that a child
  // launch would have to read back into pointers: not done (src/exec/address32.h).
  if (lw.physical32()) lw.unsupported(inst, "OpEnqueueKernel in a Physical32 module");
  auto op = [&](size_t i) { return Lowerer::operand(inst, i); };
  uint32_t entry = 0;
  const spirv::EntryPoint& child = invokeEntry(lw, inst, op(6), entry);
  require32(lw, inst, op(1), "flags operand");
  require32(lw, inst, op(3), "event count");
  require32(lw, inst, op(8), "parameter size");
  const size_t locals = inst.operands.size() - 10;
  std::vector<uint32_t> x{entry,         lw.reg(op(0)),   lw.reg(op(1)), lw.reg(op(2)),
                          lw.reg(op(3)), lw.reg(op(4)),   lw.reg(op(5)), lw.reg(op(7)),
                          lw.reg(op(8)), uint32_t(locals)};
  for (size_t i = 0; i < locals; ++i) {
    const spirv::Type& t = lw.typeOfValue(op(10 + i));
    const bool pointer = t.kind == spirv::TypeKind::Pointer;
    if (!pointer && (t.kind != spirv::TypeKind::Int || t.size != 4))
      lw.unsupported(inst, "a local size that is neither a 32-bit integer nor a pointer");
    x.push_back(lw.reg(op(10 + i)));
    x.push_back(pointer);
  }
  const NdrangeLayout nd = ndrangeLayout(lw, inst, pointee(lw, op(2)));
  for (uint32_t w : {nd.dims, nd.offset, nd.global, nd.local, nd.bytes}) x.push_back(w);
  // The child's own local variables, which its local-memory arguments add to (a size
  // past 32 bits is past kDeviceLocalMemSize anyway).
  x.push_back(uint32_t(std::min<uint64_t>(lw.facts.kernel(child).workgroupBytes, UINT32_MAX)));
  const uint32_t aux = lw.addExtra(x);
  lw.emit(inst, &runEnqueueKernel).aux = aux;
  lw.out.usesDeviceEnqueue = true;
}

void lowerEnqueueMarker(Lowerer& lw, const spirv::Instruction& inst) {
  require32(lw, inst, Lowerer::operand(inst, 1), "event count");
  std::vector<uint32_t> x;
  for (size_t i = 0; i < 4; ++i) x.push_back(lw.reg(Lowerer::operand(inst, i)));
  const uint32_t aux = lw.addExtra(x);
  lw.emit(inst, &runEnqueueMarker).aux = aux;
  lw.out.usesDeviceEnqueue = true;
}

// ---- Events -----------------------------------------------------------------------------

void createUserEvent(SubGroup& sg, const Inst& in) {
  sg.forActive([&](uint32_t l) {
    DeviceEnqueueState* s = stateOf(sg, in, l);
    sg.reg<uint64_t>(in.r)[l] = s ? s->createEvent(true) : kNullEvent;
  });
}

// Inst: a = event, b = status (OpSetUserEventStatus).
template <Op kOp>
void eventOp(SubGroup& sg, const Inst& in) {
  sg.forActive([&](uint32_t l) {
    DeviceEnqueueState* s = stateOf(sg, in, l);
    if (!s) return;
    const uint64_t e = sg.reg<uint64_t>(in.a)[l];
    bool ok = false;
    const char* what = "";
    if constexpr (kOp == Op::OpRetainEvent) {
      ok = s->retain(e), what = "retain_event";
    } else if constexpr (kOp == Op::OpReleaseEvent) {
      ok = s->release(e), what = "release_event";
    } else {
      ok = s->setUserStatus(e, sg.reg<int32_t>(in.b)[l]), what = "set_user_event_status";
    }
    if (!ok)
      reportLane(sg, in, l,
                 std::string(what) +
                     (kOp == Op::OpSetUserEventStatus
                          ? " on an event that is not a valid user event with no status set yet, "
                            "or with a status other than CL_COMPLETE or a negative error"
                          : " on an event that is not valid (never created, or released)"));
  });
}

void isValidEvent(SubGroup& sg, const Inst& in) {
  DeviceEnqueueState* s = sg.wg->launch->enqueue;
  sg.forActive(
      [&](uint32_t l) { sg.reg<uint8_t>(in.r)[l] = s && s->isValid(sg.reg<uint64_t>(in.a)[l]); });
}

// Inst: a = event, b = profiling info name, c = global pointer to two ulongs.
void captureProfiling(SubGroup& sg, const Inst& in) {
  sg.forActive([&](uint32_t l) {
    DeviceEnqueueState* s = stateOf(sg, in, l);
    if (!s) return;
    if (sg.reg<uint32_t>(in.b)[l] != kClkProfilingCommandExecTime)
      return reportLane(sg, in, l,
                        "capture_event_profiling_info: the name is not "
                        "CLK_PROFILING_COMMAND_EXEC_TIME");
    uint8_t* where = access(sg, in, in.c, l, 16, true);
    if (where && pointerSpace(sg.reg<uint64_t>(in.c)[l]) != Space::Global)
      return reportLane(sg, in, l, "capture_event_profiling_info: the value is not global memory");
    if (where && !s->captureProfiling(sg.reg<uint64_t>(in.a)[l], where))
      reportLane(sg, in, l,
                 "capture_event_profiling_info: the event is not a valid event of an enqueued "
                 "command");
  });
}

template <ExecFn kFn>
void lowerEvent(Lowerer& lw, const spirv::Instruction& inst) {
  lw.out.usesDeviceEnqueue = true;
  const size_t n = inst.operands.size();
  const uint32_t a = n > 0 ? lw.reg(Lowerer::operand(inst, 0)) : 0;
  const uint32_t b = n > 1 ? lw.reg(Lowerer::operand(inst, 1)) : 0;
  const uint32_t c = n > 2 ? lw.reg(Lowerer::operand(inst, 2)) : 0;
  Inst& in = lw.emit(inst, kFn);
  in.a = a;
  in.b = b;
  in.c = c;
}

// ---- Kernel queries ----------------------------------------------------------------------

// The sub-group size an enqueued kernel runs at: its own required size, else the parent's.
uint32_t childWidth(const SubGroup& sg, const spirv::EntryPoint& kernel) {
  return kernel.signature.requiredSubGroupSize.value_or(sg.width);
}

// Inst: aux = kernel entry index; n = which query; a = ndrange pointer (NDRange queries);
// aux2 = extra: the ndrange's layout.
enum Query : uint32_t {
  kQueryWorkGroupSize,
  kQueryPreferredMultiple,
  kQuerySubGroupCount,
  kQueryMaxSubGroupSize
};

void kernelQuery(SubGroup& sg, const Inst& in) {
  const spirv::EntryPoint& kernel = entryOf(sg, in.aux);
  const uint32_t width = childWidth(sg, kernel);
  sg.forActive([&](uint32_t l) {
    uint64_t v = 0;
    if (in.n == kQueryWorkGroupSize) {
      v = kDeviceMaxWorkGroupSize;
    } else if (in.n == kQueryPreferredMultiple || in.n == kQueryMaxSubGroupSize) {
      v = width;
    } else if (auto r = readNdrange(sg, in, in.a, sg.extra + in.aux2, l, kernel)) {
      v = ceilDiv(r->local[0] * r->local[1] * r->local[2], width);
    } else {
      reportLane(sg, in, l, "get_kernel_sub_group_count_for_ndrange: the ndrange is not valid");
    }
    sg.reg<uint32_t>(in.r)[l] = uint32_t(v);
  });
}

template <Query kQuery>
void lowerQuery(Lowerer& lw, const spirv::Instruction& inst) {
  if (lw.type(inst.resultType).kind != spirv::TypeKind::Int || lw.type(inst.resultType).size != 4)
    lw.unsupported(inst, "a result that is not a 32-bit integer");
  const bool ndrange = kQuery == kQuerySubGroupCount || kQuery == kQueryMaxSubGroupSize;
  uint32_t entry = 0;
  invokeEntry(lw, inst, Lowerer::operand(inst, ndrange ? 1 : 0), entry);
  uint32_t a = 0, aux2 = 0;
  if (ndrange) {
    a = lw.reg(Lowerer::operand(inst, 0));
    const NdrangeLayout nd = ndrangeLayout(lw, inst, pointee(lw, Lowerer::operand(inst, 0)));
    aux2 = lw.addExtra({nd.dims, nd.offset, nd.global, nd.local, nd.bytes});
  }
  Inst& in = lw.emit(inst, &kernelQuery);
  in.aux = entry;
  in.n = kQuery;
  in.a = a;
  in.aux2 = aux2;
}

void lowerDefaultQueue(Lowerer& lw, const spirv::Instruction& inst) {
  lw.emit(inst, &getDefaultQueue);
}

}  // namespace

void registerDeviceEnqueueOps(OpTable& t) {
  t.core[uint32_t(Op::OpGetDefaultQueue)] = &lowerDefaultQueue;
  t.core[uint32_t(Op::OpBuildNDRange)] = &lowerBuildNdrange;
  t.core[uint32_t(Op::OpEnqueueKernel)] = &lowerEnqueueKernel;
  t.core[uint32_t(Op::OpEnqueueMarker)] = &lowerEnqueueMarker;
  t.core[uint32_t(Op::OpCreateUserEvent)] = &lowerEvent<&createUserEvent>;
  t.core[uint32_t(Op::OpSetUserEventStatus)] = &lowerEvent<&eventOp<Op::OpSetUserEventStatus>>;
  t.core[uint32_t(Op::OpRetainEvent)] = &lowerEvent<&eventOp<Op::OpRetainEvent>>;
  t.core[uint32_t(Op::OpReleaseEvent)] = &lowerEvent<&eventOp<Op::OpReleaseEvent>>;
  t.core[uint32_t(Op::OpIsValidEvent)] = &lowerEvent<&isValidEvent>;
  t.core[uint32_t(Op::OpCaptureEventProfilingInfo)] = &lowerEvent<&captureProfiling>;
  t.core[uint32_t(Op::OpGetKernelWorkGroupSize)] = &lowerQuery<kQueryWorkGroupSize>;
  t.core[uint32_t(Op::OpGetKernelPreferredWorkGroupSizeMultiple)] =
      &lowerQuery<kQueryPreferredMultiple>;
  t.core[uint32_t(Op::OpGetKernelNDrangeSubGroupCount)] = &lowerQuery<kQuerySubGroupCount>;
  t.core[uint32_t(Op::OpGetKernelNDrangeMaxSubGroupSize)] = &lowerQuery<kQueryMaxSubGroupSize>;
}

}  // namespace spvsim
