#include "src/memory.h"

namespace spvsim {

const char* spaceName(Space s) {
  switch (s) {
    case Space::Global:
      return "global";
    case Space::Constant:
      return "constant";
    case Space::Local:
      return "local";
    case Space::Private:
      return "private";
    default:
      return "invalid";
  }
}

const std::vector<Region>& MemoryMap::regions(Space s) const {
  switch (s) {
    case Space::Global:
      return global;
    case Space::Constant:
      return constant;
    case Space::Local:
      return local;
    default:
      return priv;
  }
}

}  // namespace spvsim
