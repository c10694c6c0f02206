// A chain fused with the load or store that uses it, and a 32- to 64-bit extension fused
// with both: one fusion table (fusedChain, fuseWithChain, fuseExtendWithChain) and the
// handlers it picks, built from the chain handlers of src/exec/ops/access_chain.h and the
// lane copies of src/exec/ops/lane_copy.h. See src/DESIGN.md, "Fused chain and access".
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

#include "src/exec/lane_addresses.h"
#include "src/exec/ops/access_chain.h"
#include "src/exec/ops/conversion.h"
#include "src/exec/ops/lane_copy.h"
#include "src/exec/ops/memory_ops.h"

namespace spvsim::ops {
namespace {

using spv::Op;
using namespace chain;

// ---- A chain fused with the load or store that uses it ----
//
// `a[i]` and `m[y][x]` are chains whose only use is the access right after them. Where
// the work-group fuses (WorkGroupContext::fuse: not in the Reference tier nor the
// debugger), no observer watches the memory (WorkGroupContext::watches) and the stretch
// has room for two instructions (SubGroup::fuseBefore), one handler does both for a
// uniform base and affine indices: the lanes' addresses p0 + l * d from lane 0's and the
// step, exactly as the chain's affine path would write them, then the access when every
// lane is in bounds, aligned and allowed (the checks of uniformRegionBase). The pointer
// register, which nothing else reads, is not written. Both count as executed
// instructions, so budgets, quanta and `--stats` are those of the unfused pair. Anything
// else runs the chain's own handler and the access as the next instruction, with its
// diagnostics. See src/DESIGN.md, "Fused chain and access".

// A chain's affine addresses, from the same computation as its own affine path.
template <class I>
struct OneIndex {
  static constexpr ExecFn kChain = &accessChain1<I>;
  static bool addresses(const SubGroup& sg, const Inst& in, uint64_t& p0, uint64_t& d) {
    return affineAddresses1Of<I>(sg, in, p0, d);
  }
};

template <uint32_t kCount, class I>
struct SeveralIndices {
  static constexpr ExecFn kChain = &accessChainNAvx2Of<kCount, I>;
  static bool addresses(const SubGroup& sg, const Inst& in, uint64_t& p0, uint64_t& d) {
    return affineAddressesN<kCount, I>(sg, in, p0, d);
  }
};

// WorkGroupContext::watches out of line: only launches with observers ask, and inline it
// costs the fused paths of plain launches registers.
[[gnu::noinline, gnu::cold]] bool watched(const SubGroup& sg, Space s, uint64_t base) {
  return sg.wg->watches(s, base);
}

// The access `next` of lanes at p0 + l * d where they allow the fast path; then also
// moves pc and steps past the kTaken fused instructions, before the copy: the instruction
// loop's next dispatch reads pc (src/DESIGN.md, "Latency on the hot path"). `base`: the
// chain's base pointer, whose space and region bits every lane's address keeps (the
// affine paths check that its offsets stay in range). Memory an observer watches is
// theirs to see (WorkGroupContext::watches): there the pair is not taken.
template <bool Write, uint32_t N, uint32_t kTaken>
[[gnu::always_inline]] inline bool fusedAccess(SubGroup& sg, const Inst& next, uint64_t base,
                                               uint64_t p0, uint64_t d) {
  const Space s = pointerSpace(base);
  if (s != Space::Global && s != Space::Constant && s != Space::Local) return false;
  if (sg.wg->checkedSpaces & spaceBit(s)) [[unlikely]]
    if (watched(sg, s, base)) return false;
  const std::optional<LaneAddresses> lanes = affineLanesOf(p0, int64_t(d), sg.width, N);
  if (!lanes) return false;
  const SubGroup::FastAccess fast =
      sg.regionSpanning(*lanes, s, N, Write, next.aux, sg.width, base);
  if (!fast) return false;
  sg.pc += kTaken;
  sg.steps += kTaken;
  if constexpr (Write) {
    const uint8_t* v = sg.regs + next.b;
    switch (fast.pattern) {
      case LanePattern::Uniform:  // in lane order: the last lane's value stays
        std::memcpy(fast.at(p0), v + size_t(sg.width - 1) * N, N);
        break;
      case LanePattern::Contiguous:
        copyLanes(fast.at(p0), v, sg.width, N);
        break;
      case LanePattern::Scattered:
        for (uint32_t l = 0; l < sg.width; ++l)
          std::memcpy(fast.at(p0 + l * d), v + size_t(l) * N, N);
        break;
    }
  } else {
    uint8_t* r = sg.regs + next.r;
    switch (fast.pattern) {
      case LanePattern::Uniform:
        broadcast<N>(sg, fast.at(p0), r, N);
        break;
      case LanePattern::Contiguous:
        copyLanes(r, fast.at(p0), sg.width, N);
        break;
      case LanePattern::Scattered:
        for (uint32_t l = 0; l < sg.width; ++l)
          std::memcpy(r + size_t(l) * N, fast.at(p0 + l * d), N);
        break;
    }
    sg.setShape(next, fast.pattern == LanePattern::Uniform ? RegShape::Uniform : RegShape::Unknown);
  }
  return true;
}

template <class Chain, bool Write, uint32_t N>
void fusedChainAccess(SubGroup& sg, const Inst& in) {
  uint64_t p0, d;
  if (sg.steps < sg.fuseBefore && sg.allActive && Chain::addresses(sg, in, p0, d) &&
      fusedAccess<Write, N, 1>(sg, sg.code[sg.pc], sg.reg<uint64_t>(in.a)[0], p0, d))
    return;  // the access, done
  Chain::kChain(sg, in);
}

template <class Chain, bool Write>
struct FusedChain {
  template <uint32_t N>
  struct Of {
    static void run(SubGroup& sg, const Inst& in) { fusedChainAccess<Chain, Write, N>(sg, in); }
  };
};

template <class Chain, bool Write>
ExecFn fusedBySize(uint32_t bytes) {
  return bySizeOf<FusedChain<Chain, Write>::template Of>(bytes);
}

template <bool Write>
ExecFn fusedChain(ExecFn chain, uint32_t bytes) {
  if (chain == OneIndex<int32_t>::kChain) return fusedBySize<OneIndex<int32_t>, Write>(bytes);
  if (chain == OneIndex<int64_t>::kChain) return fusedBySize<OneIndex<int64_t>, Write>(bytes);
  if (chain == SeveralIndices<2, int32_t>::kChain)
    return fusedBySize<SeveralIndices<2, int32_t>, Write>(bytes);
  if (chain == SeveralIndices<2, int64_t>::kChain)
    return fusedBySize<SeveralIndices<2, int64_t>, Write>(bytes);
  if (chain == SeveralIndices<3, int32_t>::kChain)
    return fusedBySize<SeveralIndices<3, int32_t>, Write>(bytes);
  if (chain == SeveralIndices<3, int64_t>::kChain)
    return fusedBySize<SeveralIndices<3, int64_t>, Write>(bytes);
  return nullptr;
}

// A 32- to 64-bit extension (From: int32_t for OpSConvert, uint32_t for OpUConvert)
// whose only use is the index of a fused one-index chain right after it (`a[i]` of an
// int i, with the access after the chain): the three as one handler where the stretch has
// room for three instructions. The index values are the extension's: affine exactly
// where no lane's value wrapped around in From (IntToInt's shape rule), with lane 0's
// value and the step of the source; the extension's register is not written either.
template <class From, bool Write, uint32_t N>
void fusedExtendChainAccess(SubGroup& sg, const Inst& in) {
  if (sg.steps + 1 < sg.fuseBefore && sg.allActive && sg.keepsShapes()) {
    const RegShape shape = sg.shapeOf(in.a);
    const From* x = sg.reg<From>(in.a);
    const int64_t first = x[0];
    int64_t step = 0;
    bool affine = shape == RegShape::Uniform;
    if (shape == RegShape::Affine) {
      using U = std::make_unsigned_t<From>;
      step = std::make_signed_t<From>(U(U(x[1]) - U(x[0])));
      const int64_t last = first + step * int64_t(sg.width - 1);
      affine = last >= int64_t(std::numeric_limits<From>::min()) &&
               last <= int64_t(std::numeric_limits<From>::max());
    }
    uint64_t p0, d;
    if (affine && affineAddresses1(sg, sg.code[sg.pc], first, step, p0, d) &&
        fusedAccess<Write, N, 2>(sg, sg.code[sg.pc + 1], sg.reg<uint64_t>(sg.code[sg.pc].a)[0], p0,
                                 d))
      return;  // the chain and the access, done
  }
  if constexpr (std::is_signed_v<From>)
    ops::signExtend32To64(sg, in);
  else
    ops::zeroExtend32To64(sg, in);
}

template <class From, bool Write>
struct FusedExtend {
  template <uint32_t N>
  struct Of {
    static void run(SubGroup& sg, const Inst& in) {
      fusedExtendChainAccess<From, Write, N>(sg, in);
    }
  };
};

// Where the fused chain `chain` (of `pointer`) has one dynamic index that a scalar 32- to
// 64-bit OpSConvert / OpUConvert, emitted right before the chain in this block, computes
// for the chain alone: makes that conversion the first of the three.
template <bool Write>
void fuseExtendWithChain(Lowerer& lw, spirv::Id pointer, uint32_t bytes) {
  auto& code = lw.out.code;
  const spirv::Instruction* chain = lw.definitionInCurrentBlock(pointer);
  if (!chain || code.size() < 2) return;
  spirv::Id index = 0;
  for (size_t k = 1; k < chain->operands.size(); ++k) {
    if (lw.isConstant(chain->operands[k])) continue;
    if (index) return;  // several dynamic indices
    index = chain->operands[k];
  }
  const spirv::Instruction* ext = index ? lw.definitionInCurrentBlock(index) : nullptr;
  if (!ext || (ext->opcode != Op::OpSConvert && ext->opcode != Op::OpUConvert) ||
      !lw.usedOnce(index))
    return;
  const Shape to = lw.shape(ext->resultType), from = lw.shapeOfValue(ext->operands.at(0));
  if (to.components != 1 || to.bytes != 8 || from.components != 1 || from.bytes != 4 ||
      !to.isInt() || !from.isInt())
    return;
  Inst& conversion = code[code.size() - 2];
  if (conversion.r != lw.reg(index) || conversion.src != ext->index) return;
  ExecFn fused = ext->opcode == Op::OpSConvert
                     ? bySizeOf<FusedExtend<int32_t, Write>::template Of>(bytes)
                     : bySizeOf<FusedExtend<uint32_t, Write>::template Of>(bytes);
  if (!fused) return;
  lw.out.noteFusion(code.size() - 2, conversion.fn, 2);
  conversion.fn = fused;
}
}  // namespace

// Makes the chain that computes `pointer` a fused chain + access where it is the
// instruction emitted last, in this block, for this access alone, and an unchecked chain
// with an affine path (accessChain1, accessChainNAvx2Of).
template <bool Write>
void fuseWithChain(Lowerer& lw, spirv::Id pointer, uint32_t bytes) {
  auto& code = lw.out.code;
  if (code.empty() || code.back().r != lw.reg(pointer) || !lw.definedInCurrentBlock(pointer) ||
      !lw.usedOnce(pointer))
    return;
  ExecFn fused = fusedChain<Write>(code.back().fn, bytes);
  if (!fused) return;
  const bool oneIndex64 = code.back().fn == OneIndex<int64_t>::kChain;
  lw.out.noteFusion(code.size() - 1, code.back().fn, 1);
  code.back().fn = fused;
  if (oneIndex64) fuseExtendWithChain<Write>(lw, pointer, bytes);
}

template void fuseWithChain<false>(Lowerer& lw, spirv::Id pointer, uint32_t bytes);
template void fuseWithChain<true>(Lowerer& lw, spirv::Id pointer, uint32_t bytes);

}  // namespace spvsim::ops
