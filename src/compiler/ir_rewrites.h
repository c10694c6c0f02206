// Rewrites of clang-15's textual LLVM IR that let llvm-spirv-15 translate what real GPU
// drivers compile (see src/DESIGN.md, "Compile driver"). Each returns how many places
// it changed; the driver reports them in `spvsim info`.
#pragma once

#include <string>
#include <vector>

namespace spvsim::compiler {

// `%x = freeze T %v` (DivRemPairs, SLP, loop unswitching; llvm-spirv-15 cannot translate
// it) becomes an identity on %v: once no optimisation follows, freezing a value that is
// never poison in the simulator changes nothing. Integers and vectors of them `or` with
// zero, floating point is negated twice, pointers take a zero-offset getelementptr.
int removeFreeze(std::vector<std::string>& lines);

// Calls of the OpenCL 1.x atomic built-ins (atomic_add/sub/xchg/inc/dec/cmpxchg/min/max/
// and/or/xor and the atom_* forms) become `atomicrmw`/`cmpxchg` instructions, which
// llvm-spirv-15 translates with Device scope and relaxed semantics, the meaning OpenCL 1.2
// gives them. It translates the calls themselves with Workgroup scope
// (SPIRV-LLVM-Translator issue 934), which would make device-wide counters races.
int lowerLegacyAtomics(std::vector<std::string>& lines);

// A `switch` on an integer of a width other than 8/16/32/64 (InstCombine narrows
// `switch (x & 7)` to i3; llvm-spirv-15 then crashes) switches on the value widened to
// 32 or 64 bits instead: when the narrow value is a `trunc` used only by the switch, the
// trunc becomes an `and` with the width's mask; otherwise the switch gets a `zext`.
int widenSwitches(std::vector<std::string>& lines);

// `bitcast <N x i1> %v to iN` and back (InstCombine turns `v.x || v.y || ...` and any()/
// all() into them; llvm-spirv-15 makes an OpBitcast of a bool vector, which SPIR-V does
// not allow) become the lanes packed into bits, lane i as bit i: 2, 4 and 8 lanes as bytes
// gathered by one multiplication, other counts one by one.
int expandBoolVectorBitcasts(std::vector<std::string>& lines);

// A `llvm.dbg.value` whose DIExpression uses a DWARF operation OpenCL.DebugInfo.100 does
// not have (DW_OP_LLVM_convert at -O1+ with -g; llvm-spirv-15 aborts on it) binds its
// variable to undef instead: the debugger shows the variable as optimised out from there,
// rather than a value computed by the wrong expression.
int dropUntranslatableDebugValues(std::vector<std::string>& lines);

}  // namespace spvsim::compiler
