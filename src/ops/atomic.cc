// PLACEHOLDER: replaced by the atomic op family (issue 5 work in progress).
#include "src/lowering.h"

namespace spvsim {
void registerAtomicOps(OpTable&) {}
}  // namespace spvsim
