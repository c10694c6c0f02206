// SPV_KHR_expect_assume (cl_khr_expect_assume: __builtin_expect, __builtin_assume).
// OpExpectKHR is its value (lowered as a copy in composite.cc). OpAssumeTrueKHR promises
// that its condition holds; a lane where it does not is undefined behaviour, reported as
// `assumption-violated` (execution goes on, as the assumption changes no value).
#include "src/exec/ops/elementwise.h"

namespace spvsim {
namespace {

void assumeTrue(SubGroup& sg, const Inst& in) {
  const uint8_t* cond = sg.reg<uint8_t>(in.a);
  LaneMask violated;
  sg.forActive([&](uint32_t l) {
    if (!(cond[l] & 1)) violated.set(l);
  });
  if (violated.any())
    sg.report(in, DiagnosticKind::AssumptionViolated,
              "the condition of OpAssumeTrueKHR (__builtin_assume) is false (undefined behaviour)",
              violated);
}

void lowerAssumeTrue(Lowerer& lw, const spirv::Instruction& inst) {
  const uint32_t cond = lw.reg(inst.operands.at(0));
  Inst& in = lw.emit(inst, &assumeTrue);
  in.a = cond;
}

}  // namespace

void registerExpectAssumeOps(OpTable& t) {
  t.core[uint32_t(spv::Op::OpAssumeTrueKHR)] = &lowerAssumeTrue;
}

}  // namespace spvsim
