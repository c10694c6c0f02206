// OpenCL C printf formatting (OpenCL C spec, "printf"): C99 conversions plus the vector
// specifier `vN` (N = 2, 3, 4, 8, 16; elements joined by ',') and the length modifiers
// hh, h, hl (vectors only) and l. Pure: the caller supplies the argument bytes and reads
// `%s` strings from kernel memory.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace spvsim::ops {

// One printf argument of one lane, as it sits in the register file.
struct PrintfArg {
  bool isFloat = false;
  bool isPointer = false;
  uint32_t elementBytes = 4;  // 1, 2, 4 or 8
  uint32_t components = 1;    // vectors: 2, 3, 4, 8, 16
  const uint8_t* data = nullptr;
  // What %p prints where it is not the register's bits: a Physical32 module's 32-bit
  // address of a pointer (src/exec/address32.h).
  bool hasAddress = false;
  uint64_t address = 0;
};

// Reads the NUL-terminated string at a kernel pointer; false if it cannot be read.
using PrintfStringReader = std::function<bool(uint64_t pointer, std::string& out)>;

// Appends the formatted text to `out` and returns true, or returns false (appending
// nothing) for a format the OpenCL C spec leaves undefined: an unknown conversion,
// a missing argument, an argument of the wrong kind or vector size, a length modifier
// that does not fit the conversion, or a `%s` string that cannot be read.
bool formatPrintf(std::string_view format, const std::vector<PrintfArg>& args,
                  const PrintfStringReader& readString, std::string& out);

}  // namespace spvsim::ops
