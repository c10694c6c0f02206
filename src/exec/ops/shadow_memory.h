// Shadow memory of the uninitialised-read checker (LaunchContext::checkUninitialized).
//
// Layout: with the checker on, program.cc doubles each lane's private arena and the
// work-group's local arena; byte i of the second half is 1 once byte i of the first half
// has been written in this work-group. So the shadow of a Local or Private host address
// (as resolve() returns it) is that address plus the arena's data size, with no extra
// pointer in SubGroup, and the per-work-group zeroing of the arenas resets the shadow
// too. Global and constant memory are initialised by the host and have no shadow.
//
// Cost when off: handlers test checkingUninitialized() once per sub-group instruction
// and run an instantiation without any shadow code (see memory_access.cc).
//
// Lives in src/exec/ops/ because the handlers (and src/exec/BUILD's header glob) are here.
#pragma once

#include <cstdint>
#include <cstring>

#include "src/exec/lowered.h"
#include "src/exec/subgroup.h"

namespace spvsim {

// Whether this launch tracks initialisation: one test per sub-group instruction.
inline bool checkingUninitialized(const SubGroup& sg) { return sg.wg->launch->checkUninitialized; }

// The shadow of `host` (the address resolve() returned for kernel pointer `p`), or
// nullptr for memory without shadow (global, constant). Only valid while checking.
inline uint8_t* shadowOf(const SubGroup& sg, uint64_t p, const uint8_t* host) {
  const MemoryMap& mem = *sg.wg->launch->memory;
  switch (pointerSpace(p)) {
    case Space::Local:
      return const_cast<uint8_t*>(host) + mem.localArenaBytes;
    case Space::Private:
      return const_cast<uint8_t*>(host) + mem.privateArenaBytes;
    default:
      return nullptr;
  }
}

// Writes mark their bytes in SubGroup::noteWrite (every writer goes through resolve()
// or uniformRegionBase()), so no handler marks them itself; atomics, which resolve
// without noting a write, mark the lanes that wrote (SubGroup::markInitialized).

// How many of the `bytes` bytes at `p`/`host` were never written (0 for global and
// constant memory). Only call while checking.
uint64_t uninitializedBytes(const SubGroup& sg, uint64_t p, const uint8_t* host, uint64_t bytes);

// The shadow side of a memory-to-memory copy (OpCopyMemory*): the target's bytes become
// exactly as initialised as the source's (a global or constant source counts as
// written), so copying a partially initialised struct is not a read. Only while checking.
void copyShadow(const SubGroup& sg, uint64_t dstP, uint8_t* dst, uint64_t srcP, const uint8_t* src,
                uint64_t bytes);

// Gives handler H (with `template <bool Checked> static void exec(SubGroup&, const
// Inst&)`) a `run` that picks the checked instantiation once per sub-group instruction.
template <class H>
struct CheckedDispatch {
  static void run(SubGroup& sg, const Inst& in) {
    checkingUninitialized(sg) ? H::template exec<true>(sg, in) : H::template exec<false>(sg, in);
  }
};

// One `uninitialized-read` error for `lanes`, which read `bytes` bytes through `ptrs`.
void reportUninitialized(SubGroup& sg, const Inst& in, const LaneMask& lanes, const uint64_t* ptrs,
                         uint64_t bytes);

// Marks what a sub-group's lanes hold before their first instruction: built-in variables,
// module-scope Private variables with initializers, ByVal argument copies. Only while
// checking; after the private arena (data and shadow) was zeroed.
void markStartState(const SubGroup& sg, const LoweredKernel& k);

}  // namespace spvsim
