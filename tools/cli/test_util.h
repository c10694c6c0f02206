// Helpers shared by the tools/ tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace spvsim::tools::testing {

// Little-endian bytes of a sequence of values of one type.
template <typename T>
std::vector<uint8_t> bytesOf(std::initializer_list<T> values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  size_t i = 0;
  for (T v : values) std::memcpy(out.data() + sizeof(T) * i++, &v, sizeof(T));
  return out;
}

}  // namespace spvsim::tools::testing
