// OpenCL 2.0 pipe built-ins (src/exec/pipe.h holds the pipe itself): OpReadPipe and
// OpWritePipe (read_pipe/write_pipe with 2 arguments), OpReserve{Read,Write}PipePackets,
// OpReserved{Read,Write}Pipe (4 arguments), OpCommit{Read,Write}Pipe, OpIsValidReserveId,
// OpGet{Num,Max}PipePackets, and the collectives OpGroupReserve{Read,Write}PipePackets /
// OpGroupCommit{Read,Write}Pipe at Subgroup (cl_khr_subgroups sub_group_reserve_*) and
// Workgroup scope (work_group_reserve_*). Results follow the OpenCL C spec: 0 on
// success, a negative value (-1) when the pipe is empty or full; a reserve id of 0
// (invalid) when the reservation does not fit. Misuse is reported: an invalid, foreign
// or committed reserve id and an index outside its reservation (invalid-reserve-id), a
// packet size that is not the pipe's and commits of partly written reservations
// (pipe-misuse), collectives reached by part of the group or with different arguments.
#include "src/exec/pipe.h"

#include <fmt/core.h>

#include <cstring>
#include <string>
#include <vector>

#include "spirv/disassembly.h"
#include "src/exec/ops/group_util.h"

namespace spvsim {
namespace {

using namespace ops;
using spv::Op;

// Inst fields: r result, a pipe, b reserve id (or num packets), c index, aux2 packet
// pointer, n packet size, aux packet alignment.

LaneMask laneOf(uint32_t l) {
  LaneMask m;
  m.set(l);
  return m;
}

uint64_t handleOf(const SubGroup& sg, const Inst& in, uint32_t l) {
  return sg.reg<uint64_t>(in.a)[l];
}

// The pipe lane l names, with the instruction's packet size; nullptr (reported) else.
PipeStorage* pipeFor(SubGroup& sg, const Inst& in, uint32_t l) {
  const uint64_t h = handleOf(sg, in, l);
  const auto& pipes = sg.wg->launch->pipes;
  if (h == 0 || h > pipes.size()) {
    sg.report(in, DiagnosticKind::PipeMisuse, "the pipe operand is not a pipe argument's pipe",
              laneOf(l));
    return nullptr;
  }
  PipeStorage* p = pipes[h - 1];
  if (p->packetSize != in.n) {
    sg.report(in, DiagnosticKind::PipeMisuse,
              fmt::format("packet size {} bytes, but the pipe's packets are {} bytes (the "
                          "kernel's pipe element type does not match the pipe object)",
                          in.n, p->packetSize),
              laneOf(l));
    return nullptr;
  }
  return p;
}

const char* useProblem(ReserveUse u) {
  switch (u) {
    case ReserveUse::Unknown:
      return "the reserve id was not returned by a reservation on this pipe";
    case ReserveUse::Committed:
      return "the reservation was already committed";
    case ReserveUse::WrongSide:
      return "the reservation is for the other direction (a read reservation used to write, "
             "or the reverse)";
    case ReserveUse::WrongScope:
      return "the reservation was made by a reserve built-in of another scope (work-item, "
             "sub-group, work-group) than this commit's";
    case ReserveUse::OutOfRange:
      return "the packet index is not inside the reservation";
    case ReserveUse::Ok:
      break;
  }
  return "";
}

// The reserve id of lane l, checked against its pipe's handle; its number on the pipe,
// or 0 (reported).
uint64_t reserveNumber(SubGroup& sg, const Inst& in, uint32_t l, uint64_t rid) {
  if (rid == 0) {
    sg.report(in, DiagnosticKind::InvalidReserveId,
              "uses an invalid reserve id (the reservation failed; test it with "
              "is_valid_reserve_id first)",
              laneOf(l));
    return 0;
  }
  if (reserveIdHandle(rid) != handleOf(sg, in, l)) {
    sg.report(in, DiagnosticKind::InvalidReserveId,
              "uses a reserve id of another pipe, or a value that is not a reserve id", laneOf(l));
    return 0;
  }
  return reserveIdNumber(rid);
}

bool reportUse(SubGroup& sg, const Inst& in, const LaneMask& lanes, ReserveUse u,
               const std::string& detail = "") {
  if (u == ReserveUse::Ok) return true;
  sg.report(in, DiagnosticKind::InvalidReserveId, useProblem(u) + detail, lanes);
  return false;
}

void reportUnwritten(SubGroup& sg, const Inst& in, const LaneMask& lanes, uint32_t unwritten) {
  if (unwritten == 0) return;
  sg.report(in, DiagnosticKind::PipeMisuse,
            fmt::format("commits a write reservation of which {} packet{} never written: "
                        "readers would receive undefined packets",
                        unwritten, unwritten == 1 ? " was" : "s were"),
            lanes);
}

// The host bytes of lane l's packet pointer (register `ptrReg`), checked without
// reporting the access (the caller reports it once the pipe operation happens);
// nullptr (reported) on a bad pointer.
uint8_t* packetAt(SubGroup& sg, const Inst& in, uint32_t ptrReg, uint32_t l, bool write) {
  const uint64_t* ptr = sg.reg<uint64_t>(ptrReg);
  AccessError err = AccessError::Ok;
  uint8_t* host = sg.locate(ptr[l], l, in.n, write, err);
  if (!host) {
    sg.reportAccess(in, err, laneOf(l), ptr, in.n, write);
    return nullptr;
  }
  if (ptr[l] & (in.aux - 1))  // the offset bias is aligned
    sg.reportAccess(in, AccessError::Misaligned, laneOf(l), ptr, in.n, write);
  return host;
}

// Reports the packet access to the scheduler and observers (resolve()); `host` was
// checked by packetAt.
uint8_t* touchPacket(SubGroup& sg, const Inst& in, uint32_t ptrReg, uint32_t l, bool write) {
  AccessError err = AccessError::Ok;
  return sg.resolve(sg.reg<uint64_t>(ptrReg)[l], l, in.n, write, err);
}

// ---- read_pipe / write_pipe (2 arguments) -----------------------------------------

template <bool Write>
void plainAccess(SubGroup& sg, const Inst& in) {
  int32_t* r = sg.reg<int32_t>(in.r);
  std::vector<uint8_t> packet(in.n);
  sg.forActive([&](uint32_t l) {
    r[l] = -1;
    PipeStorage* p = pipeFor(sg, in, l);
    if (!p || !packetAt(sg, in, in.aux2, l, !Write)) return;
    if (Write) {
      std::memcpy(packet.data(), touchPacket(sg, in, in.aux2, l, false), in.n);
      r[l] = p->write(packet.data()) ? 0 : -1;
    } else if (p->read(packet.data())) {
      std::memcpy(touchPacket(sg, in, in.aux2, l, true), packet.data(), in.n);
      r[l] = 0;
    }
  });
}

// ---- reserve_* / read_pipe, write_pipe with a reserve id / commit_* -------------------

template <bool Write>
void reserveItem(SubGroup& sg, const Inst& in) {
  uint64_t* r = sg.reg<uint64_t>(in.r);
  const uint32_t* n = sg.reg<uint32_t>(in.b);
  sg.forActive([&](uint32_t l) {
    r[l] = 0;
    if (PipeStorage* p = pipeFor(sg, in, l))
      r[l] = makeReserveId(handleOf(sg, in, l), p->reserve(Write, n[l], PipeScope::WorkItem));
  });
}

template <bool Write>
void reservedAccess(SubGroup& sg, const Inst& in) {
  int32_t* r = sg.reg<int32_t>(in.r);
  const uint64_t* rid = sg.reg<uint64_t>(in.b);
  const uint32_t* index = sg.reg<uint32_t>(in.c);
  std::vector<uint8_t> packet(in.n);
  sg.forActive([&](uint32_t l) {
    r[l] = -1;
    PipeStorage* p = pipeFor(sg, in, l);
    if (!p) return;
    const uint64_t number = reserveNumber(sg, in, l, rid[l]);
    if (!number || !packetAt(sg, in, in.aux2, l, !Write)) return;
    ReserveUse u;
    if (Write) {
      std::memcpy(packet.data(), touchPacket(sg, in, in.aux2, l, false), in.n);
      u = p->writeReserved(number, index[l], packet.data());
    } else {
      u = p->readReserved(number, index[l], packet.data());
      if (u == ReserveUse::Ok)
        std::memcpy(touchPacket(sg, in, in.aux2, l, true), packet.data(), in.n);
    }
    if (reportUse(sg, in, laneOf(l), u, fmt::format(" (index {})", index[l]))) r[l] = 0;
  });
}

template <bool Write>
void commitItem(SubGroup& sg, const Inst& in) {
  const uint64_t* rid = sg.reg<uint64_t>(in.b);
  sg.forActive([&](uint32_t l) {
    PipeStorage* p = pipeFor(sg, in, l);
    if (!p) return;
    const uint64_t number = reserveNumber(sg, in, l, rid[l]);
    if (!number) return;
    uint32_t unwritten = 0;
    if (reportUse(sg, in, laneOf(l), p->commit(number, Write, PipeScope::WorkItem, unwritten)))
      reportUnwritten(sg, in, laneOf(l), unwritten);
  });
}

// ---- sub_group_reserve_* / sub_group_commit_* -----------------------------------------

const char* groupName(bool reserve, bool write, bool workGroup) {
  static const char* names[2][2][2] = {
      {{"sub_group_commit_read_pipe", "work_group_commit_read_pipe"},
       {"sub_group_commit_write_pipe", "work_group_commit_write_pipe"}},
      {{"sub_group_reserve_read_pipe", "work_group_reserve_read_pipe"},
       {"sub_group_reserve_write_pipe", "work_group_reserve_write_pipe"}}};
  return names[reserve][write][workGroup];
}

// Lanes of `lanes` whose (pipe, operand b) differ from lane `first`'s.
LaneMask differing(const SubGroup& sg, const Inst& in, const LaneMask& lanes, uint64_t handle,
                   uint64_t b, uint32_t bBytes) {
  LaneMask differ;
  lanes.forEach([&](uint32_t l) {
    if (handleOf(sg, in, l) != handle || laneUint(sg, in.b, l, bBytes) != b) differ.set(l);
  });
  return differ;
}

void reportDiffering(SubGroup& sg, const Inst& in, const LaneMask& differ, const char* what,
                     const char* group) {
  if (differ.none()) return;
  sg.report(in, DiagnosticKind::NonUniformArgument,
            fmt::format("{} is called with a pipe or {} that differs across the {}; the first "
                        "work-item's are used",
                        what, std::strstr(what, "reserve") ? "packet count" : "reserve id", group),
            differ);
}

// Reserves for the whole group from lane `l` of `sg`'s operands; the reserve id (0: none).
template <bool Write>
uint64_t groupReserve(SubGroup& sg, const Inst& in, uint32_t l, PipeScope scope) {
  PipeStorage* p = pipeFor(sg, in, l);
  if (!p) return 0;
  return makeReserveId(handleOf(sg, in, l), p->reserve(Write, sg.reg<uint32_t>(in.b)[l], scope));
}

template <bool Write>
void groupCommit(SubGroup& sg, const Inst& in, uint32_t l, PipeScope scope, const LaneMask& lanes) {
  PipeStorage* p = pipeFor(sg, in, l);
  if (!p) return;
  const uint64_t number = reserveNumber(sg, in, l, sg.reg<uint64_t>(in.b)[l]);
  if (!number) return;
  uint32_t unwritten = 0;
  if (reportUse(sg, in, lanes, p->commit(number, Write, scope, unwritten)))
    reportUnwritten(sg, in, lanes, unwritten);
}

template <bool Write>
void reserveSubGroup(SubGroup& sg, const Inst& in) {
  const char* what = groupName(true, Write, false);
  checkCollective(sg, in, what);
  const uint32_t first = sg.mask.first();
  reportDiffering(
      sg, in, differing(sg, in, sg.mask, handleOf(sg, in, first), sg.reg<uint32_t>(in.b)[first], 4),
      what, "sub-group");
  const uint64_t id = groupReserve<Write>(sg, in, first, PipeScope::Subgroup);
  uint64_t* r = sg.reg<uint64_t>(in.r);
  sg.forActive([&](uint32_t l) { r[l] = id; });
}

template <bool Write>
void commitSubGroup(SubGroup& sg, const Inst& in) {
  const char* what = groupName(false, Write, false);
  checkCollective(sg, in, what);
  const uint32_t first = sg.mask.first();
  reportDiffering(
      sg, in, differing(sg, in, sg.mask, handleOf(sg, in, first), sg.reg<uint64_t>(in.b)[first], 8),
      what, "sub-group");
  groupCommit<Write>(sg, in, first, PipeScope::Subgroup, sg.mask);
}

// ---- work_group_reserve_* / work_group_commit_* (work-group collectives) -------------

// Reports the work-items whose operands differ from work-item 0's.
void checkWorkGroupUniform(SubGroup* sgs, size_t count, const Inst& in, uint32_t bBytes,
                           const char* what) {
  const uint64_t handle = handleOf(sgs[0], in, 0);
  const uint64_t b = laneUint(sgs[0], in.b, 0, bBytes);
  for (size_t k = 0; k < count; ++k)
    reportDiffering(sgs[k], in, differing(sgs[k], in, sgs[k].live, handle, b, bBytes), what,
                    "work-group");
}

template <bool Write>
void reserveWorkGroup(SubGroup* sgs, size_t count, const Inst& in) {
  checkWorkGroupUniform(sgs, count, in, 4, groupName(true, Write, true));
  const uint64_t id = groupReserve<Write>(sgs[0], in, 0, PipeScope::Workgroup);
  for (size_t k = 0; k < count; ++k) {
    uint64_t* r = sgs[k].reg<uint64_t>(in.r);
    sgs[k].live.forEach([&](uint32_t l) { r[l] = id; });
  }
}

template <bool Write>
void commitWorkGroup(SubGroup* sgs, size_t count, const Inst& in) {
  checkWorkGroupUniform(sgs, count, in, 8, groupName(false, Write, true));
  groupCommit<Write>(sgs[0], in, 0, PipeScope::Workgroup, sgs[0].live);
}

// ---- queries ---------------------------------------------------------------------

void isValidReserveId(SubGroup& sg, const Inst& in) {
  const uint64_t* rid = sg.reg<uint64_t>(in.a);
  uint8_t* r = sg.reg<uint8_t>(in.r);
  sg.forActive([&](uint32_t l) { r[l] = rid[l] != 0; });
}

template <bool Max>
void packetCount(SubGroup& sg, const Inst& in) {
  uint32_t* r = sg.reg<uint32_t>(in.r);
  sg.forActive([&](uint32_t l) {
    PipeStorage* p = pipeFor(sg, in, l);
    r[l] = !p ? 0 : Max ? p->maxPackets : p->packets();
  });
}

// ---- lowering --------------------------------------------------------------------

// Packet size and alignment operands at `at`, `at + 1`: constants (llvm-spirv emits
// sizeof and alignof of the pipe's element type), the alignment a power of two.
void packetOperands(Lowerer& lw, const spirv::Instruction& inst, size_t at, Inst& in) {
  const spirv::Id size = Lowerer::operand(inst, at), align = Lowerer::operand(inst, at + 1);
  if (!lw.isConstant(size) || !lw.isConstant(align))
    lw.unsupported(inst, "a packet size or alignment that is not a constant");
  in.n = static_cast<uint32_t>(lw.constantValue(size));
  in.aux = static_cast<uint32_t>(lw.constantValue(align));
  if (in.n == 0 || in.aux == 0 || (in.aux & (in.aux - 1)))
    lw.unsupported(inst, fmt::format("packet size {} with alignment {}", in.n, in.aux));
}

// The pipe operand's register; a read through a write_only pipe (or the reverse) is an
// invalid module (OpenCL SPIR-V environment: the access qualifier of OpTypePipe).
template <bool Write>
uint32_t pipeReg(Lowerer& lw, const spirv::Instruction& inst, size_t at) {
  const spirv::Id pipe = Lowerer::operand(inst, at);
  const spirv::Type& t = lw.typeOfValue(pipe);
  const auto access = static_cast<spv::AccessQualifier>(t.operands.empty() ? 2 : t.operands[0]);
  const auto refused = Write ? spv::AccessQualifier::ReadOnly : spv::AccessQualifier::WriteOnly;
  if (t.opcode != Op::OpTypePipe || access == refused)
    throw Error(
        DiagnosticKind::InvalidModule,
        fmt::format("{}{} {} a {} pipe", spirv::opcodeName(inst.opcode),
                    inst.result ? " " + lw.facts.idName(inst.result) : "",
                    Write ? "writes to" : "reads from", Write ? "read_only" : "write_only"));
  return lw.reg(pipe);
}

uint32_t countReg(Lowerer& lw, const spirv::Instruction& inst, size_t at) {
  const spirv::Id id = Lowerer::operand(inst, at);
  if (lw.shapeOfValue(id).bytes != 4) lw.unsupported(inst, "a packet count that is not 32-bit");
  return lw.reg(id);
}

template <bool Write>
void lowerPlain(Lowerer& lw, const spirv::Instruction& inst) {
  const uint32_t pipe = pipeReg<Write>(lw, inst, 0);
  const uint32_t ptr = lw.reg(Lowerer::operand(inst, 1));
  Inst& in = lw.emit(inst, &plainAccess<Write>);
  in.a = pipe;
  in.aux2 = ptr;
  packetOperands(lw, inst, 2, in);
}

template <bool Write>
void lowerReserve(Lowerer& lw, const spirv::Instruction& inst) {
  const uint32_t pipe = pipeReg<Write>(lw, inst, 0);
  const uint32_t n = countReg(lw, inst, 1);
  Inst& in = lw.emit(inst, &reserveItem<Write>);
  in.a = pipe;
  in.b = n;
  packetOperands(lw, inst, 2, in);
}

template <bool Write>
void lowerReserved(Lowerer& lw, const spirv::Instruction& inst) {
  const uint32_t pipe = pipeReg<Write>(lw, inst, 0);
  const uint32_t rid = lw.reg(Lowerer::operand(inst, 1));
  const uint32_t index = countReg(lw, inst, 2);
  const uint32_t ptr = lw.reg(Lowerer::operand(inst, 3));
  Inst& in = lw.emit(inst, &reservedAccess<Write>);
  in.a = pipe;
  in.b = rid;
  in.c = index;
  in.aux2 = ptr;
  packetOperands(lw, inst, 4, in);
}

template <bool Write>
void lowerCommit(Lowerer& lw, const spirv::Instruction& inst) {
  const uint32_t pipe = pipeReg<Write>(lw, inst, 0);
  const uint32_t rid = lw.reg(Lowerer::operand(inst, 1));
  Inst& in = lw.emit(inst, &commitItem<Write>);
  in.a = pipe;
  in.b = rid;
  packetOperands(lw, inst, 2, in);
}

template <bool Write>
void lowerGroupReserve(Lowerer& lw, const spirv::Instruction& inst) {
  const GroupScope scope = groupScope(lw, inst);
  const uint32_t pipe = pipeReg<Write>(lw, inst, 1);
  const uint32_t n = countReg(lw, inst, 2);
  Inst& in = scope == GroupScope::Subgroup
                 ? lw.emit(inst, &reserveSubGroup<Write>)
                 : emitWorkGroupCollective(lw, inst, &reserveWorkGroup<Write>);
  in.a = pipe;
  in.b = n;
  packetOperands(lw, inst, 3, in);
}

template <bool Write>
void lowerGroupCommit(Lowerer& lw, const spirv::Instruction& inst) {
  const GroupScope scope = groupScope(lw, inst);
  const uint32_t pipe = pipeReg<Write>(lw, inst, 1);
  const uint32_t rid = lw.reg(Lowerer::operand(inst, 2));
  Inst& in = scope == GroupScope::Subgroup
                 ? lw.emit(inst, &commitSubGroup<Write>)
                 : emitWorkGroupCollective(lw, inst, &commitWorkGroup<Write>);
  in.a = pipe;
  in.b = rid;
  packetOperands(lw, inst, 3, in);
}

void lowerIsValid(Lowerer& lw, const spirv::Instruction& inst) {
  const uint32_t rid = lw.reg(Lowerer::operand(inst, 0));
  lw.emit(inst, &isValidReserveId).a = rid;
}

template <bool Max>
void lowerCount(Lowerer& lw, const spirv::Instruction& inst) {
  const uint32_t pipe = lw.reg(Lowerer::operand(inst, 0));
  Inst& in = lw.emit(inst, &packetCount<Max>);
  in.a = pipe;
  packetOperands(lw, inst, 1, in);
}

}  // namespace

void registerPipeOps(OpTable& t) {
  auto add = [&](Op op, LowerFn fn) { t.core[uint32_t(op)] = fn; };
  add(Op::OpReadPipe, &lowerPlain<false>);
  add(Op::OpWritePipe, &lowerPlain<true>);
  add(Op::OpReserveReadPipePackets, &lowerReserve<false>);
  add(Op::OpReserveWritePipePackets, &lowerReserve<true>);
  add(Op::OpReservedReadPipe, &lowerReserved<false>);
  add(Op::OpReservedWritePipe, &lowerReserved<true>);
  add(Op::OpCommitReadPipe, &lowerCommit<false>);
  add(Op::OpCommitWritePipe, &lowerCommit<true>);
  add(Op::OpIsValidReserveId, &lowerIsValid);
  add(Op::OpGetNumPipePackets, &lowerCount<false>);
  add(Op::OpGetMaxPipePackets, &lowerCount<true>);
  add(Op::OpGroupReserveReadPipePackets, &lowerGroupReserve<false>);
  add(Op::OpGroupReserveWritePipePackets, &lowerGroupReserve<true>);
  add(Op::OpGroupCommitReadPipe, &lowerGroupCommit<false>);
  add(Op::OpGroupCommitWritePipe, &lowerGroupCommit<true>);
}

}  // namespace spvsim
