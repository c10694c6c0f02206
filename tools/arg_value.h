// One kernel argument as the command line prepares it, before the simulator sees it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/element_type.h"

namespace spvsim::tools {

struct ArgValue {
  enum class Kind { Value, Buffer, Local, Null };
  Kind kind = Kind::Value;
  ElementType type;            // Value, Buffer: the element type as the user named it
  uint64_t count = 0;          // Value, Buffer: elements in `bytes`
  std::vector<uint8_t> bytes;  // Value: the argument; Buffer: contents (results after a run)
  uint64_t localBytes = 0;     // Local
  bool dump = false;           // Buffer: print after the run
  bool hex = false;            // Buffer: print integers in hexadecimal (.sim `hex`)
  std::string text;            // as the user wrote it, for messages
  std::string structName;      // Value of struct:TYPE,...: "struct {int, float}"; else ""

  bool isPointerKind() const { return kind != Kind::Value; }
  bool isStruct() const { return !structName.empty(); }
};

}  // namespace spvsim::tools
