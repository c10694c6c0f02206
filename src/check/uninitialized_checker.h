// The uninitialised-read checker (`--check-uninitialized`): reads of private or local
// memory that this work-group never wrote are `uninitialized-read` errors.
//
// Shadow layout: the checker's factory asks for mirrored arenas
// (ObserverFactory::mirrorsArenas), so each lane's private arena and the work-group's
// local arena are followed by a mirror of their size, the checker's own (the
// undefined-value checker's is another: a byte written with an undefined value is
// written); byte i of the mirror is 1 once byte i of the arena has been written in this
// work-group. The shadow of a Local or Private host address is that address plus the
// mirror's number times the arena's data size, and the executor's per-work-group zeroing
// of the arenas resets the shadow too. Global and constant memory are initialised by the
// host and have no shadow.
//
// Events: plain writes, atomics that wrote and copies' targets mark bytes written; plain
// reads check them (one diagnostic per instruction, naming every lane that read unwritten
// bytes); a copy carries its source's shadow to its target rather than checking it
// (copying a struct with padding or unwritten members is not a read).
#pragma once

#include <cstdint>

#include "src/exec/lane_mask.h"
#include "src/exec/observer.h"

namespace spvsim {
struct LoweredKernel;
}

namespace spvsim::check {

// Marks defined, in arena mirror `mirror` (LaunchContext::mirrorOf), what the lanes of
// sub-groups sgs[0, count) hold before their first instruction: built-in variables with a private
// copy (BuiltinSlot::inMemory, or all with LaunchContext::builtinStorage), module-scope Private
// variables with initializers, ByVal argument copies.
void markArenaStartState(const SubGroup* sgs, size_t count, const LoweredKernel& k,
                         uint32_t mirror);

class UninitializedChecker final : public ExecutionObserver {
 public:
  // `mirror`: the arena mirror that is its shadow (LaunchContext::mirrorOf).
  explicit UninitializedChecker(uint32_t mirror) : mirror_(mirror) {}
  // Marks what each sub-group's lanes hold before their first instruction: built-in
  // variables, module-scope Private variables with initializers, ByVal argument copies.
  void workGroupBegin(WorkGroupContext& wg, SubGroup* subGroups, size_t count) override;
  void access(SubGroup& sg, const MemoryAccess& a) override;
  void accessRun(SubGroup& sg, const MemoryAccess& first, uint64_t stride, uint32_t lanes) override;

 private:
  void checkRead(SubGroup& sg, const MemoryAccess& a);

  const uint32_t mirror_;

  // The instruction execution whose uninitialised read was reported last, so that later
  // lanes of the same execution join its diagnostic.
  const SubGroup* lastSubGroup_ = nullptr;
  uint64_t lastStep_ = 0;
  size_t lastDiagnostic_ = 0;
  bool appendLanes_ = false;
};

}  // namespace spvsim::check
