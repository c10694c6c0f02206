// Control flow: branches, switch, calls, returns. Divergence pushes SIMT entries that
// reconverge at the branch's immediate post-dominator (Lowerer::reconvergenceSlot).
#include <fmt/core.h>

#include <cstring>

#include "src/exec/ops/elementwise.h"
#include "src/exec/ops/memory_copy.h"

namespace spvsim {
namespace {

using spv::Op;

void branch(SubGroup& sg, const Inst& in) {
  sg.takeEdge(in.aux, sg.mask);
  sg.jump(sg.extra[in.aux]);
}

void branchConditional(SubGroup& sg, const Inst& in) {
  const LaneMask taken = boolMask(sg.reg<uint8_t>(in.a), sg.width) & sg.mask;
  const LaneMask notTaken = sg.mask.andNot(taken);
  const uint32_t t = sg.extra[in.aux], f = sg.extra[in.aux2];
  if (notTaken.none() || t == f) {
    sg.takeEdge(in.aux, taken);
    if (notTaken.any()) sg.takeEdge(in.aux2, notTaken);
    sg.jump(t);
    return;
  }
  if (taken.none()) {
    sg.takeEdge(in.aux2, notTaken);
    sg.jump(f);
    return;
  }
  sg.takeEdge(in.aux, taken);
  sg.takeEdge(in.aux2, notTaken);
  const uint32_t targets[2] = {t, f};
  const LaneMask masks[2] = {taken, notTaken};
  sg.diverge(targets, masks, 2, sg.extra[in.b]);
}

// extra at in.aux: [caseCount, defaultEdge, (valueLo, valueHi, edge)*]; in.b: the
// reconvergence slot; in.n: selector bytes.
template <class T>
struct Switch {
  static void run(SubGroup& sg, const Inst& in) {
    const T* sel = sg.reg<T>(in.a);
    const uint32_t* table = sg.extra + in.aux;
    const uint32_t cases = table[0];
    // Group the active lanes by the edge they take (at most cases + 1 groups).
    uint32_t edges[kMaxSubGroupSize];
    LaneMask masks[kMaxSubGroupSize];
    uint32_t groups = 0;
    sg.forActive([&](uint32_t l) {
      uint32_t edge = table[1];
      for (uint32_t k = 0; k < cases; ++k) {
        const uint32_t* c = table + 2 + 3 * k;
        uint64_t value = c[0] | (uint64_t(c[1]) << 32);
        if (uint64_t(sel[l]) == value) {
          edge = c[2];
          break;
        }
      }
      uint32_t g = 0;
      while (g < groups && edges[g] != edge) ++g;
      if (g == groups) {
        edges[groups] = edge;
        masks[groups++] = LaneMask{};
      }
      masks[g].set(l);
    });
    uint32_t targets[kMaxSubGroupSize];
    for (uint32_t g = 0; g < groups; ++g) {
      sg.takeEdge(edges[g], masks[g]);
      targets[g] = sg.extra[edges[g]];
    }
    bool uniform = true;
    for (uint32_t g = 1; g < groups; ++g) uniform &= targets[g] == targets[0];
    if (uniform)
      sg.jump(targets[0]);
    else
      sg.diverge(targets, masks, groups, sg.extra[in.b]);
  }
};

void functionCall(SubGroup& sg, const Inst& in) {
  // The loader refuses recursion, but a chain of distinct functions may still nest
  // deeper than a device's stack would allow: the explicit call stack stays bounded.
  if (sg.frames.size() > kMaxCallDepth) [[unlikely]] {
    sg.fatal(in, DiagnosticKind::StackOverflow,
             fmt::format("call depth exceeds {} nested calls", kMaxCallDepth));
    return;
  }
  const LoweredKernel& k = *sg.wg->launch->kernel;
  const LoweredFunction& f = k.functions[in.aux];
  const uint32_t* args = sg.extra + in.b;
  // Every lane, so the shape comes along. Registers are whole 64-byte granules
  // (kShapeGranule): copied as such, in fixed-size moves.
  for (uint32_t i = 0; i < args[0]; ++i) {
    uint8_t* dst = sg.regs + f.paramRegs[i];
    const uint8_t* src = sg.regs + args[1 + i];
    for (size_t at = 0, bytes = size_t(f.paramSizes[i]) * sg.width; at < bytes; at += kShapeGranule)
      std::memcpy(dst + at, src + at, kShapeGranule);
    sg.shapes[shapeSlot(f.paramRegs[i])] = sg.shapes[shapeSlot(args[1 + i])];
  }
  sg.frames.push_back({in.aux, in.r, static_cast<uint32_t>(sg.simt.size())});
  sg.simt.back().pc = sg.pc;  // where the caller resumes
  sg.simt.push_back({f.entryPc, kNoPc, sg.mask});
  sg.pc = f.entryPc;
}

// A call with by-value parameters (Lowerer::byValCopy): each active lane's argument
// object is first copied into the callee's own copy, as OpCopyMemory copies (so
// observers see one Copy access per lane: a read of the caller's object and a write of
// the callee's, shadows following), and the call passes the copies' addresses.
// extra at in.c: [count, (copyReg, argumentReg, bytes)*].
void functionCallCopyingByVal(SubGroup& sg, const Inst& in) {
  const uint32_t* copies = sg.extra + in.c;
  for (uint32_t i = 0; i < copies[0]; ++i) {
    Inst copy = in;  // failures are reported at the call
    copy.a = copies[1 + 3 * i];
    copy.b = copies[2 + 3 * i];
    copy.n = copies[3 + 3 * i];
    ops::copyMemoryBytes(sg, copy);
  }
  functionCall(sg, in);
}

void functionExit(SubGroup& sg, const Inst&) {
  if (sg.frames.size() == 1) {
    sg.state = SubGroupState::Done;
    sg.pc--;  // stay on the exit: a finished sub-group executes nothing more
    return;
  }
  sg.frames.pop_back();
  sg.simt.pop_back();
  const SimtEntry& top = sg.simt.back();
  sg.pc = top.pc;
  sg.setMask(top.mask);
}

void returnVoid(SubGroup& sg, const Inst& in) { sg.jump(sg.extra[in.aux]); }

void returnValue(SubGroup& sg, const Inst& in) {
  const uint32_t dst = sg.frames.back().resultReg, bytes = in.n;
  sg.forActive([&](uint32_t l) {
    std::memcpy(sg.regs + dst + l * bytes, sg.regs + in.a + l * bytes, bytes);
  });
  sg.jump(sg.extra[in.aux]);
}

void unreachable(SubGroup& sg, const Inst& in) {
  sg.fatal(in, DiagnosticKind::Unreachable, "executed OpUnreachable (undefined behaviour)");
}

void lowerBranch(Lowerer& lw, const spirv::Instruction& inst) {
  Inst& in = lw.emit(inst, &branch);
  in.aux = lw.edgeTo(inst.operands.at(0));
}

void lowerBranchConditional(Lowerer& lw, const spirv::Instruction& inst) {
  uint32_t cond = lw.reg(inst.operands.at(0));
  uint32_t t = lw.edgeTo(inst.operands.at(1));
  uint32_t f = lw.edgeTo(inst.operands.at(2));
  uint32_t slot = lw.reconvergenceSlot();
  Inst& in = lw.emit(inst, &branchConditional);
  in.a = cond;
  in.aux = t;
  in.aux2 = f;
  in.b = slot;
}

void lowerSwitch(Lowerer& lw, const spirv::Instruction& inst) {
  Shape s = lw.shapeOfValue(inst.operands.at(0));
  const uint32_t literalWords = s.bits > 32 ? 2 : 1;
  std::vector<uint32_t> table{0, lw.edgeTo(inst.operands.at(1))};
  const uint64_t valueMask = s.bits >= 64 ? ~0ull : (1ull << s.bits) - 1;
  for (size_t k = 2; k + literalWords < inst.operands.size(); k += literalWords + 1) {
    uint64_t v = inst.operands[k];
    if (literalWords == 2) v |= uint64_t(inst.operands[k + 1]) << 32;
    v &= valueMask;  // the register holds the value zero-extended
    table.insert(table.end(),
                 {uint32_t(v), uint32_t(v >> 32), lw.edgeTo(inst.operands[k + literalWords])});
    ++table[0];
  }
  uint32_t slot = lw.reconvergenceSlot();
  uint32_t at = lw.addExtra(table);
  ExecFn fn = pickUnsigned<Switch>(s.scalar);
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  uint32_t sel = lw.reg(inst.operands[0]);
  Inst& in = lw.emit(inst, fn);
  in.a = sel;
  in.aux = at;
  in.b = slot;
  in.n = s.bytes;
}

void lowerCall(Lowerer& lw, const spirv::Instruction& inst) {
  uint32_t f = lw.functionIndex(inst.operands.at(0));
  const spirv::Function& callee = *lw.module.findFunction(inst.operands[0]);
  std::vector<uint32_t> args{static_cast<uint32_t>(inst.operands.size() - 1)};
  std::vector<uint32_t> copies{0};
  for (size_t k = 1; k < inst.operands.size(); ++k) {
    const uint32_t arg = lw.reg(inst.operands[k]);
    const size_t p = k - 1;
    if (p >= callee.params.size() ||
        !lw.module.hasParamAttr(callee.params[p], spv::FunctionParameterAttribute::ByVal)) {
      args.push_back(arg);
      continue;
    }
    const uint32_t copy = lw.byValCopy(f, static_cast<uint32_t>(p));
    const uint64_t bytes = lw.type(lw.type(callee.paramTypes[p]).element).size;
    copies.insert(copies.end(), {copy, arg, static_cast<uint32_t>(bytes)});
    ++copies[0];
    args.push_back(copy);
  }
  uint32_t at = lw.addExtra(args);
  const uint32_t copiesAt = copies[0] ? lw.addExtra(copies) : 0;
  Inst& in = lw.emit(inst, copies[0] ? &functionCallCopyingByVal : &functionCall);
  in.aux = f;
  in.b = at;
  in.c = copiesAt;
}

}  // namespace

ExecFn functionExitHandler() { return &functionExit; }

void registerControlOps(OpTable& t) {
  t.core[uint32_t(Op::OpBranch)] = &lowerBranch;
  t.core[uint32_t(Op::OpBranchConditional)] = &lowerBranchConditional;
  t.core[uint32_t(Op::OpSwitch)] = &lowerSwitch;
  t.core[uint32_t(Op::OpFunctionCall)] = &lowerCall;
  t.core[uint32_t(Op::OpReturn)] = [](Lowerer& lw, const spirv::Instruction& inst) {
    lw.emit(inst, &returnVoid).aux = lw.exitSlot();
  };
  t.core[uint32_t(Op::OpReturnValue)] = [](Lowerer& lw, const spirv::Instruction& inst) {
    uint32_t value = lw.reg(inst.operands.at(0));
    uint32_t bytes = lw.valueBytes(lw.typeIdOfValue(inst.operands[0]));
    Inst& in = lw.emit(inst, &returnValue);
    in.a = value;
    in.n = bytes;
    in.aux = lw.exitSlot();
  };
  t.core[uint32_t(Op::OpUnreachable)] = [](Lowerer& lw, const spirv::Instruction& inst) {
    lw.emit(inst, &unreachable);
  };
  // Instructions with no effect on execution.
  for (Op op : {Op::OpNop, Op::OpLifetimeStart, Op::OpLifetimeStop, Op::OpLoopMerge,
                Op::OpSelectionMerge}) {
    t.core[uint32_t(op)] = [](Lowerer&, const spirv::Instruction&) {};
  }
}

}  // namespace spvsim
