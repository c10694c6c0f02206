// OpAtomic*: load, store, exchange, compare-exchange (weak), increment, decrement,
// add, sub, s/u min/max, and/or/xor, flag test-and-set/clear and the EXT float
// add/min/max, 32- and 64-bit (floats also 16-bit), on any pointer that resolves to
// global, local or private memory (generic pointers carry their space).
//
// The active lanes of a sub-group perform the atomic one after another in lane order,
// each a separate atomic operation with its own result. Global memory is shared with
// work-groups on other host threads, so global atomics are real host atomics
// (std::atomic_ref, seq_cst) and counters and CAS loops are exact at any thread count.
// Local memory belongs to one work-group, which runs on one host thread, and private
// memory to one lane: there a plain read-modify-write is already atomic. Commutative
// read-modify-writes on a buffer that nothing else in the launch reads may go to a host
// thread's private copy instead (PrivatisedRmw; src/DESIGN.md, "Privatised reductions").
//
// Scope and memory semantics are decoded and kept in the Inst (aux: Scope, with
// kPossiblyLegacyAtomic for what may be an OpenCL 1.x atomic_* that llvm-spirv gave
// Workgroup scope; aux2: semantics; see below) for observers (src/exec/observer.h). Executing every
// atomic seq_cst with device-wide visibility is stronger than any Scope/semantics
// combination asks for (a stronger order and a wider scope only remove outcomes), so
// it implements them all; the relaxed memory model (src/exec/memory_model.h) shows the
// outcomes weaker orders allow.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>

#include "spirv/disassembly.h"
#include "spirv/opcode.h"
#include "src/exec/lowering.h"
#include "src/exec/ops/by_size.h"
#include "src/exec/reduction_copies.h"
#include "src/exec/subgroup.h"

namespace spvsim {
namespace {

using spirv::AtomicForm;
using spirv::AtomicOperation;
using spirv::Id;
using spv::Op;

// Inst::aux2 packs the memory semantics: bits 0..15 the (Equal) semantics, bits
// 16..31 CompareExchange's Unequal semantics. All SPIR-V semantics bits fit in 16.

// Inst layout: r = result, a = pointer, b = value, c = comparator.

// What kind of access a lane's atomic was, for observers. Stores and read-modify-writes
// write; a compare-exchange that failed only read, under its Unequal semantics.
enum class Kind { Load, Store, Rmw };

MemoryAccess atomicAccess(const Inst& in, uint32_t lane, uint64_t p, uint8_t* host, uint32_t bytes,
                          Kind kind, bool wrote) {
  const uint32_t equal = in.aux2 & 0xffff, unequal = in.aux2 >> 16;
  MemoryAccess a{AccessKind::AtomicLoad, lane, p, host, bytes, in.aux, equal};
  if (kind == Kind::Store) a.kind = AccessKind::AtomicStore;
  if (kind == Kind::Rmw) a.kind = wrote ? AccessKind::AtomicRmw : AccessKind::AtomicFailedRmw;
  if (kind == Kind::Rmw && !wrote) a.semantics = unequal;
  return a;
}

// When an atomic ends the sub-group's turn: it hands off after an atomic that made
// no progress (a load, a failed compare-exchange, an exchange or add that kept the value:
// what a spin-wait or a lock repeats while another sub-group holds what it waits for),
// after a store (a flag it publishes), and after kAtomicsPerTurn read-modify-writes in
// one turn (a spin that writes, e.g. a semaphore taken and given back, still lets the
// others run). Read-modify-writes that change memory (counters, histograms) run on
// without a hand-off.
constexpr uint32_t kAtomicsPerTurn = 64;

template <Kind K>
void handOff(SubGroup& sg, uint64_t writesBefore) {
  if (K != Kind::Rmw || sg.wg->writes == writesBefore || ++sg.atomicsInTurn >= kAtomicsPerTurn)
    sg.yieldRequested = true;
}

// The host base of the one region that every active lane's pointer lies in, naturally
// aligned and inside the region's bounds, with the access kind the region allows:
// each lane's address is then hostAddress(hostOrigin(base), pointer) and no lane can
// fail. nullptr where any lane needs the checked path (other spaces, raw SVM addresses,
// out of bounds, misaligned) and whenever observers or shadow registers watch the
// accesses (they see each lane through the checked path), but for a privatised
// reduction's (kUnwatched: the launch privatised it because none of them watches it).
// `shared`: global memory.
template <class T, Kind K, bool kUnwatched = false>
uint8_t* regionBase(const SubGroup& sg, const uint64_t* ptr, bool& shared) {
  if ((!kUnwatched && !sg.wg->fastPaths) || !sg.activeCount) return nullptr;
  uint64_t lo = ~uint64_t(0), hi = 0, low = 0;
  sg.forActive([&](uint32_t l) {
    lo = std::min(lo, ptr[l]);
    hi = std::max(hi, ptr[l]);
    low |= ptr[l];
  });
  // The same space and region bits at both ends: every pointer in between shares them.
  if (((lo ^ hi) >> kOffsetBits) || (low & (sizeof(T) - 1))) return nullptr;
  const Space s = pointerSpace(lo);
  if (s != Space::Global && s != Space::Local) return nullptr;
  const uint64_t region = pointerRegion(lo);
  if (region == 0 || region >= sg.regionCount[uint32_t(s)]) return nullptr;
  const Region& r = sg.regionTable[uint32_t(s)][region];
  // Negative and saturated offsets are above any region size as offsetBits.
  const uint64_t first = offsetBits(lo), last = offsetBits(hi);
  if (first > r.size || last > r.size || sizeof(T) > r.size - last) return nullptr;
  if ((K != Kind::Store && !r.readable) || (K != Kind::Load && !r.writable)) return nullptr;
  shared = s == Space::Global;
  return shared ? r.base : sg.wg->localArena + r.arenaOffset;
}

constexpr RelaxedMemory::Atomic relaxedKind(Kind k) {
  return k == Kind::Load    ? RelaxedMemory::Atomic::Load
         : k == Kind::Store ? RelaxedMemory::Atomic::Store
                            : RelaxedMemory::Atomic::Rmw;
}

// Resolves each active lane's pointer in lane order and calls f(lane, address,
// shared): address is nullptr for lanes whose access fails (out of bounds, read-only,
// misaligned; reported once per kind), shared is true for global memory, which other
// host threads may touch at the same time. Under the relaxed memory model the address
// may be a lane's buffered store or its view of memory (src/exec/memory_model.h), never
// shared. f returns whether the lane wrote (a failed
// compare-exchange does not), for observers.
template <class T, Kind K, class F>
void eachLane(SubGroup& sg, const Inst& in, F f) {
  constexpr bool Write = K != Kind::Load;
  const uint64_t* ptr = sg.reg<uint64_t>(in.a);
  const uint64_t writesBefore = sg.wg->writes;
  bool shared = false;
  if (uint8_t* base = regionBase<T, K>(sg, ptr, shared)) {
    // `shared` as a constant, so that each lane's operation inlines into one loop.
    const uintptr_t origin = hostOrigin(base);
    if (shared)
      sg.forActive([&](uint32_t l) { f(l, hostAddress(origin, ptr[l]), true); });
    else
      sg.forActive([&](uint32_t l) { f(l, hostAddress(origin, ptr[l]), false); });
    return handOff<K>(sg, writesBefore);
  }
  LaneMask failed, misaligned;
  AccessError err = AccessError::Ok, firstErr = AccessError::Ok;
  const MemoryMap& mem = *sg.wg->launch->memory;
  sg.forActive([&](uint32_t l) {
    const uint64_t at = mem.canonical(ptr[l]);  // a raw SVM address as its region's pointer
    // A store only writes; a load and a read-modify-write read, so locate() checks
    // readability for them and a read-modify-write's writability is checked after it, so
    // that a failed lane's error names it. What the creation flags forbid is performed and
    // reported (Region).
    uint8_t* p = sg.locate(at, l, sizeof(T), K == Kind::Store, err);
    if (p && err != AccessError::Ok)
      sg.reportForbiddenByFlags(in, l, at, sizeof(T), K == Kind::Store);
    if (p && K == Kind::Rmw) {
      if (!sg.locate(at, l, sizeof(T), true, err))
        p = nullptr;
      else if (err != AccessError::Ok)
        sg.reportForbiddenByFlags(in, l, at, sizeof(T), true);
    }
    if (!p) {
      failed.set(l);
      firstErr = err;
    } else if (pointerOffset(at) % sizeof(T)) {  // atomics need natural alignment
      misaligned.set(l);
      p = nullptr;
    }
    uint8_t* use = p;  // the relaxed model may hand out a buffered store or a view
    if (p && sg.wg->relaxed) [[unlikely]]
      use = sg.wg->relaxed->atomic(sg, l, at, p, sizeof(T), relaxedKind(K), in.aux2 & 0xffff);
    const bool wrote = f(l, use, use == p && p && pointerSpace(at) == Space::Global);
    if (p && sg.wg->observers.any()) [[unlikely]]
      sg.notify(atomicAccess(in, l, at, p, sizeof(T), K, wrote));
  });
  if (failed.any()) sg.reportAccess(in, firstErr, failed, ptr, sizeof(T), Write);
  if (misaligned.any())
    sg.reportAccess(in, AccessError::Misaligned, misaligned, ptr, sizeof(T), Write);
  handOff<K>(sg, writesBefore);
}

// A host atomic needs a naturally aligned host address; kernel buffers are (the
// kernel offset is checked above), but a host buffer with an odd base would not be:
// such a buffer gets a plain access (exact with one thread).
template <class T>
bool hostAtomic(uint8_t* p, bool shared) {
  return shared && reinterpret_cast<uintptr_t>(p) % std::atomic_ref<T>::required_alignment == 0;
}

// Replaces *p by next(old) as one atomic step; returns old.
template <class T, class F>
[[gnu::always_inline]] inline T update(SubGroup& sg, uint8_t* p, bool shared, F next) {
  T old, now;
  if (hostAtomic<T>(p, shared)) {
    std::atomic_ref<T> a(*reinterpret_cast<T*>(p));
    old = a.load();
    while (!a.compare_exchange_weak(old, now = next(old))) {
    }
  } else {
    std::memcpy(&old, p, sizeof(T));
    now = next(old);
    std::memcpy(p, &now, sizeof(T));
  }
  // Only changes count as progress: a spin on a failing CAS or on an exchange that
  // keeps the value makes none.
  if (now != old) ++sg.wg->writes;
  return old;
}

// Ops with a host fetch-op (Op_::fetch: one locked instruction, no CAS loop).
template <class Op_, class T>
concept NativeFetch = requires(std::atomic_ref<T> a, T v) {
  Op_::fetch(a, v);
};

// One lane's read-modify-write Op_ with operand `value`; returns the old value.
template <class T, class Op_>
[[gnu::always_inline]] inline T modify(SubGroup& sg, uint8_t* p, bool shared, T value) {
  if constexpr (NativeFetch<Op_, T>) {
    if (hostAtomic<T>(p, shared)) {
      const T old = Op_::fetch(std::atomic_ref<T>(*reinterpret_cast<T*>(p)), value);
      if (Op_::next(old, value) != old) ++sg.wg->writes;  // as update() counts
      return old;
    }
  }
  return update<T>(sg, p, shared, [&](T old) { return Op_::next(old, value); });
}

// Read-modify-write ops on the bit pattern T; Op_::next(old, value) gives the new
// value (increment and decrement have no value operand: value 0).
template <class T, class Op_>
struct Rmw {
  static void run(SubGroup& sg, const Inst& in) {
    T* r = sg.reg<T>(in.r);
    const T* v = Op_::kHasValue ? sg.reg<T>(in.b) : nullptr;
    eachLane<T, Kind::Rmw>(sg, in, [&](uint32_t l, uint8_t* p, bool shared) {
      const T value = Op_::kHasValue ? v[l] : T(0);
      r[l] = p ? modify<T, Op_>(sg, p, shared, value) : T(0);
      return true;
    });
  }
};

// The memory-order bits of a semantics operand: Acquire, Release, AcquireRelease,
// SequentiallyConsistent.
constexpr uint32_t kOrderingBits = 0x1e;

// Op_ applied to the element of a privatised buffer's copy at `at`.
template <class T, class Op_>
[[gnu::always_inline]] inline void modifyCopy(uint8_t* at, T value) {
  T e;
  std::memcpy(&e, at, sizeof(T));
  e = Op_::next(e, value);
  std::memcpy(at, &e, sizeof(T));
}

// A read-modify-write on a reduction target's memory (src/exec/reduction.h): where the
// launch privatises the lane's buffer, the op updates the host thread's copy, a plain
// read-modify-write. Nothing in the launch reads the buffer or the result, so no
// execution can tell; the copies reach the buffer when the launch ends. An ordering
// semantics still orders the lanes' other memory accesses: one host fence does what
// the locked instructions did. Elsewhere (no copies, another buffer) it is Rmw.
template <class T, class Op_>
struct PrivatisedRmw {
  static void run(SubGroup& sg, const Inst& in) {
    ReductionCopies* copies = sg.wg->reductions;
    if (!copies) return Rmw<T, Op_>::run(sg, in);
    if (in.aux2 & kOrderingBits) std::atomic_thread_fence(std::memory_order_seq_cst);
    const uint64_t* ptr = sg.reg<uint64_t>(in.a);
    const T* v = Op_::kHasValue ? sg.reg<T>(in.b) : nullptr;
    const uint64_t writesBefore = sg.wg->writes;
    bool shared = false;
    if (regionBase<T, Kind::Rmw, true>(sg, ptr, shared) && shared) {
      const uint64_t region = pointerRegion(ptr[sg.mask.first()]);
      if (uint8_t* copy = copies->copyFor(region, Op_::kReduction, sizeof(T))) {
        const uintptr_t origin = hostOrigin(copy);
        sg.forActive([&](uint32_t l) {
          modifyCopy<T, Op_>(hostAddress(origin, ptr[l]), Op_::kHasValue ? v[l] : T(0));
        });
        sg.wg->writes += sg.activeCount;
        return handOff<Kind::Rmw>(sg, writesBefore);
      }
    }
    // Lanes in several buffers or failing: each lane on its own.
    T* r = sg.reg<T>(in.r);
    const MemoryMap& mem = *sg.wg->launch->memory;
    eachLane<T, Kind::Rmw>(sg, in, [&](uint32_t l, uint8_t* p, bool global) {
      const T value = Op_::kHasValue ? v[l] : T(0);
      const uint64_t at = mem.canonical(ptr[l]);
      uint8_t* copy =
          p && global ? copies->copyFor(pointerRegion(at), Op_::kReduction, sizeof(T)) : nullptr;
      if (copy) {
        modifyCopy<T, Op_>(copy + offsetBits(at), value);
        ++sg.wg->writes;
      } else {
        r[l] = p ? modify<T, Op_>(sg, p, global, value) : T(0);
      }
      return true;
    });
  }
};

template <class T>
struct CompareExchange {
  static void run(SubGroup& sg, const Inst& in) {
    T* r = sg.reg<T>(in.r);
    const T* v = sg.reg<T>(in.b);
    const T* cmp = sg.reg<T>(in.c);
    eachLane<T, Kind::Rmw>(sg, in, [&](uint32_t l, uint8_t* p, bool shared) {
      r[l] = p ? update<T>(sg, p, shared, [&](T old) { return old == cmp[l] ? v[l] : old; }) : T(0);
      return r[l] == cmp[l];  // exchanged
    });
  }
};

template <class T>
struct Load {
  static void run(SubGroup& sg, const Inst& in) {
    T* r = sg.reg<T>(in.r);
    eachLane<T, Kind::Load>(sg, in, [&](uint32_t l, uint8_t* p, bool shared) {
      if (!p)
        r[l] = 0;
      else if (hostAtomic<T>(p, shared))
        r[l] = std::atomic_ref<T>(*reinterpret_cast<T*>(p)).load();
      else
        std::memcpy(&r[l], p, sizeof(T));
      return false;
    });
  }
};

template <class T>
struct Store {
  static void run(SubGroup& sg, const Inst& in) {
    const T* v = sg.reg<T>(in.b);
    eachLane<T, Kind::Store>(sg, in, [&](uint32_t l, uint8_t* p, bool shared) {
      if (!p) return false;
      ++sg.wg->writes;
      if (hostAtomic<T>(p, shared))
        std::atomic_ref<T>(*reinterpret_cast<T*>(p)).store(v[l]);
      else
        std::memcpy(p, &v[l], sizeof(T));
      return true;
    });
  }
};

// OpAtomicFlagTestAndSet: the flag is a 32-bit integer, set = 1 (non-zero), clear = 0;
// the result is whether it was set before.
struct FlagTestAndSet {
  static void run(SubGroup& sg, const Inst& in) {
    uint8_t* r = sg.reg<uint8_t>(in.r);
    eachLane<uint32_t, Kind::Rmw>(sg, in, [&](uint32_t l, uint8_t* p, bool shared) {
      r[l] = p ? update<uint32_t>(sg, p, shared, [](uint32_t) { return 1u; }) != 0 : 0;
      return true;
    });
  }
};

struct FlagClear {
  static void run(SubGroup& sg, const Inst& in) {
    eachLane<uint32_t, Kind::Store>(sg, in, [&](uint32_t, uint8_t* p, bool shared) {
      if (p) update<uint32_t>(sg, p, shared, [](uint32_t) { return 0u; });
      return true;
    });
  }
};

// The operations. T is the unsigned bit pattern; signed and float ops reinterpret it.
template <class T>
using Signed = std::make_signed_t<T>;

struct Exchange {
  static constexpr bool kHasValue = true;
  template <class T>
  static T fetch(std::atomic_ref<T> a, T v) {
    return a.exchange(v);
  }
  template <class T>
  static T next(T, T v) {
    return v;
  }
};
struct IAdd {
  static constexpr ReductionOp kReduction = ReductionOp::Add;
  static constexpr bool kHasValue = true;
  template <class T>
  static T fetch(std::atomic_ref<T> a, T v) {
    return a.fetch_add(v);
  }
  template <class T>
  static T next(T o, T v) {
    return T(o + v);
  }
};
struct ISub {
  static constexpr ReductionOp kReduction = ReductionOp::Add;
  static constexpr bool kHasValue = true;
  template <class T>
  static T fetch(std::atomic_ref<T> a, T v) {
    return a.fetch_sub(v);
  }
  template <class T>
  static T next(T o, T v) {
    return T(o - v);
  }
};
struct IIncrement {  // no value operand
  static constexpr ReductionOp kReduction = ReductionOp::Add;
  static constexpr bool kHasValue = false;
  template <class T>
  static T fetch(std::atomic_ref<T> a, T) {
    return a.fetch_add(T(1));
  }
  template <class T>
  static T next(T o, T) {
    return T(o + 1);
  }
};
struct IDecrement {
  static constexpr ReductionOp kReduction = ReductionOp::Add;
  static constexpr bool kHasValue = false;
  template <class T>
  static T fetch(std::atomic_ref<T> a, T) {
    return a.fetch_sub(T(1));
  }
  template <class T>
  static T next(T o, T) {
    return T(o - 1);
  }
};
struct UMin {
  static constexpr ReductionOp kReduction = ReductionOp::UMin;
  static constexpr bool kHasValue = true;
  template <class T>
  static T next(T o, T v) {
    return v < o ? v : o;
  }
};
struct UMax {
  static constexpr ReductionOp kReduction = ReductionOp::UMax;
  static constexpr bool kHasValue = true;
  template <class T>
  static T next(T o, T v) {
    return v > o ? v : o;
  }
};
struct SMin {
  static constexpr ReductionOp kReduction = ReductionOp::SMin;
  static constexpr bool kHasValue = true;
  template <class T>
  static T next(T o, T v) {
    return Signed<T>(v) < Signed<T>(o) ? v : o;
  }
};
struct SMax {
  static constexpr ReductionOp kReduction = ReductionOp::SMax;
  static constexpr bool kHasValue = true;
  template <class T>
  static T next(T o, T v) {
    return Signed<T>(v) > Signed<T>(o) ? v : o;
  }
};
struct And {
  static constexpr ReductionOp kReduction = ReductionOp::And;
  static constexpr bool kHasValue = true;
  template <class T>
  static T fetch(std::atomic_ref<T> a, T v) {
    return a.fetch_and(v);
  }
  template <class T>
  static T next(T o, T v) {
    return o & v;
  }
};
struct Or {
  static constexpr ReductionOp kReduction = ReductionOp::Or;
  static constexpr bool kHasValue = true;
  template <class T>
  static T fetch(std::atomic_ref<T> a, T v) {
    return a.fetch_or(v);
  }
  template <class T>
  static T next(T o, T v) {
    return o | v;
  }
};
struct Xor {
  static constexpr ReductionOp kReduction = ReductionOp::Xor;
  static constexpr bool kHasValue = true;
  template <class T>
  static T fetch(std::atomic_ref<T> a, T v) {
    return a.fetch_xor(v);
  }
  template <class T>
  static T next(T o, T v) {
    return o ^ v;
  }
};

// Floats: F is the floating type whose bits T holds.
template <class F>
struct FloatOf;
template <>
struct FloatOf<uint16_t> {
  using type = _Float16;
};
template <>
struct FloatOf<uint32_t> {
  using type = float;
};
template <>
struct FloatOf<uint64_t> {
  using type = double;
};

template <class T, class G>
T onFloats(T o, T v, G g) {
  using F = typename FloatOf<T>::type;
  return std::bit_cast<T>(F(g(std::bit_cast<F>(o), std::bit_cast<F>(v))));
}
struct FAdd {
  static constexpr bool kHasValue = true;
  template <class T>
  static T next(T o, T v) {
    return onFloats(o, v, [](auto a, auto b) { return a + b; });
  }
};
// OpenCL's atomic_fetch_min/max on floats compute fmin/fmax (a NaN operand yields
// the other one); done in double, exact for half and float.
struct FMin {
  static constexpr bool kHasValue = true;
  template <class T>
  static T next(T o, T v) {
    return onFloats(o, v, [](auto a, auto b) { return std::fmin(double(a), double(b)); });
  }
};
struct FMax {
  static constexpr bool kHasValue = true;
  template <class T>
  static T next(T o, T v) {
    return onFloats(o, v, [](auto a, auto b) { return std::fmax(double(a), double(b)); });
  }
};

// ---- Lowering ----

// Operand positions (after result type and id) of one atomic opcode.
// The type the atomic operates on: the result's, the stored value's, or the pointee's.
Id operandType(Lowerer& lw, const spirv::Instruction& inst, const AtomicForm& f) {
  if (f.operation == AtomicOperation::Store) return lw.typeIdOfValue(inst.operands.at(f.value));
  if (f.operation == AtomicOperation::FlagTestAndSet || f.operation == AtomicOperation::FlagClear)
    return lw.type(lw.typeIdOfValue(inst.operands.at(f.pointer))).element;
  return inst.resultType;
}

// Handlers by operand size (src/exec/ops/by_size.h): 32 and 64 bits, and 16 for the
// float read-modify-writes (half atomics, SPV_EXT_shader_atomic_float16_add).
template <template <class> class H>
ExecFn bySize(uint32_t bytes) {
  return ops::byUnsigned<H, 4, 8>(bytes);
}

template <class Op_>
struct RmwOf {
  template <class T>
  using Of = Rmw<T, Op_>;
};

template <class Op_>
struct PrivatisedOf {
  template <class T>
  using Of = PrivatisedRmw<T, Op_>;
};

// Read-modify-writes that a launch may privatise (PrivatisedRmw), 32- and 64-bit.
template <class Op_>
ExecFn privatisedBySize(uint32_t bytes) {
  return ops::byUnsigned<PrivatisedOf<Op_>::template Of, 4, 8>(bytes);
}

template <class Op_>
ExecFn rmwBySize(uint32_t bytes, bool allowHalf = false) {
  return allowHalf ? ops::byUnsigned<RmwOf<Op_>::template Of, 2, 4, 8>(bytes)
                   : ops::byUnsigned<RmwOf<Op_>::template Of, 4, 8>(bytes);
}

// The PrivatisedRmw handler of a reduction target's read-modify-write (the analysis
// admits only these ops, on 32- and 64-bit integers).
ExecFn pickPrivatised(AtomicOperation op, const Shape& s) {
  if (!s.isInt() || s.components != 1) return nullptr;
  switch (op) {
    case AtomicOperation::IIncrement:
      return privatisedBySize<IIncrement>(s.bytes);
    case AtomicOperation::IDecrement:
      return privatisedBySize<IDecrement>(s.bytes);
    case AtomicOperation::IAdd:
      return privatisedBySize<IAdd>(s.bytes);
    case AtomicOperation::ISub:
      return privatisedBySize<ISub>(s.bytes);
    case AtomicOperation::SMin:
      return privatisedBySize<SMin>(s.bytes);
    case AtomicOperation::UMin:
      return privatisedBySize<UMin>(s.bytes);
    case AtomicOperation::SMax:
      return privatisedBySize<SMax>(s.bytes);
    case AtomicOperation::UMax:
      return privatisedBySize<UMax>(s.bytes);
    case AtomicOperation::And:
      return privatisedBySize<And>(s.bytes);
    case AtomicOperation::Or:
      return privatisedBySize<Or>(s.bytes);
    case AtomicOperation::Xor:
      return privatisedBySize<Xor>(s.bytes);
    default:
      return nullptr;
  }
}

// The handler for `op` on values of `s`, or nullptr where the environment has none.
ExecFn pick(AtomicOperation op, const Shape& s) {
  const bool isInt = s.isInt(), isFloat = s.isFloat();
  const bool scalar = s.components == 1 && (isInt || isFloat);
  if (!scalar) return nullptr;
  const uint32_t bytes = s.bytes;
  switch (op) {
    case AtomicOperation::Load:
      return bySize<Load>(bytes);
    case AtomicOperation::Store:
      return bySize<Store>(bytes);
    case AtomicOperation::Exchange:
      return rmwBySize<Exchange>(bytes);
    case AtomicOperation::CompareExchange:
      return isInt ? bySize<CompareExchange>(bytes) : nullptr;
    case AtomicOperation::FAdd:
      return isFloat ? rmwBySize<FAdd>(bytes, true) : nullptr;
    case AtomicOperation::FMin:
      return isFloat ? rmwBySize<FMin>(bytes, true) : nullptr;
    case AtomicOperation::FMax:
      return isFloat ? rmwBySize<FMax>(bytes, true) : nullptr;
    case AtomicOperation::FlagTestAndSet:
      return isInt && bytes == 4 ? &FlagTestAndSet::run : nullptr;
    case AtomicOperation::FlagClear:
      return isInt && bytes == 4 ? &FlagClear::run : nullptr;
    default:
      break;
  }
  if (!isInt) return nullptr;
  switch (op) {
    case AtomicOperation::IIncrement:
      return rmwBySize<IIncrement>(bytes);
    case AtomicOperation::IDecrement:
      return rmwBySize<IDecrement>(bytes);
    case AtomicOperation::IAdd:
      return rmwBySize<IAdd>(bytes);
    case AtomicOperation::ISub:
      return rmwBySize<ISub>(bytes);
    case AtomicOperation::SMin:
      return rmwBySize<SMin>(bytes);
    case AtomicOperation::UMin:
      return rmwBySize<UMin>(bytes);
    case AtomicOperation::SMax:
      return rmwBySize<SMax>(bytes);
    case AtomicOperation::UMax:
      return rmwBySize<UMax>(bytes);
    case AtomicOperation::And:
      return rmwBySize<And>(bytes);
    case AtomicOperation::Or:
      return rmwBySize<Or>(bytes);
    case AtomicOperation::Xor:
      return rmwBySize<Xor>(bytes);
    default:
      return nullptr;
  }
}

void lowerAtomic(Lowerer& lw, const spirv::Instruction& inst) {
  const AtomicForm& f = *spirv::atomicForm(inst.opcode);
  const Id type = operandType(lw, inst, f);
  ExecFn fn = lw.reductionRmw(inst) ? pickPrivatised(f.operation, lw.shape(type)) : nullptr;
  if (!fn) fn = pick(f.operation, lw.shape(type));
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  const Id scope = inst.operands.at(f.scope);
  // Observers need the scope at lowering time; OpenCL compilers emit constants.
  if (!lw.isConstant(scope))
    lw.unsupported(inst, spirv::opcodeName(inst.opcode) + " with a Scope that is not a constant");
  const uint32_t pointer = lw.reg(inst.operands.at(f.pointer));
  uint32_t value = 0, comparator = 0;
  if (f.value >= 0) value = lw.reg(inst.operands.at(f.value));
  if (f.comparator >= 0) comparator = lw.reg(inst.operands.at(f.comparator));
  Inst& in = lw.emit(inst, fn);
  in.a = pointer;
  in.b = value;  // unused by increment/decrement/load/flags
  in.c = comparator;
  in.n = lw.shape(type).bytes;
  in.aux = uint32_t(lw.constantValue(scope));
  if (lw.module.possiblyLegacyAtomics.count(inst.index)) in.aux |= kPossiblyLegacyAtomic;
  in.aux2 = memorySemantics(lw, inst.operands.at(f.semantics));
  if (f.unequal >= 0) in.aux2 |= memorySemantics(lw, inst.operands.at(f.unequal)) << 16;
}

}  // namespace

void registerAtomicOps(OpTable& t) {
  for (const AtomicForm& f : spirv::atomicForms()) t.core[uint32_t(f.op)] = &lowerAtomic;
}

}  // namespace spvsim
