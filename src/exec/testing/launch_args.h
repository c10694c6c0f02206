// Test support: binding host vectors and values as kernel arguments, one-dimensional
// NDRanges, and diagnostics as text, for the simulator's tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "src/exec/program.h"

namespace spvsim::testing {

template <class T>
ArgBinding bufferOf(std::vector<T>& v) {
  return ArgBinding::buffer(reinterpret_cast<uint8_t*>(v.data()), v.size() * sizeof(T));
}

template <class T>
ArgBinding valueOf(T v) {
  std::vector<uint8_t> b(sizeof(T));
  std::memcpy(b.data(), &v, sizeof(T));
  return ArgBinding::bytes(b);
}

// A one-dimensional NDRange with the given local size.
inline NDRange range1(uint64_t global, uint64_t local) {
  NDRange r;
  r.global = {global, 1, 1};
  r.local = {local, 1, 1};
  r.localGiven = true;
  return r;
}

// "kind: message" per diagnostic, for failure messages.
inline std::string describe(const LaunchResult& r) {
  std::string s;
  for (const auto& d : r.diagnostics) s += std::string(kindName(d.kind)) + ": " + d.message + "\n";
  return s;
}

// The kinds of the launch's diagnostics ("data-race", ...), each once.
inline std::set<std::string> kinds(const LaunchResult& r) {
  std::set<std::string> out;
  for (const auto& d : r.diagnostics) out.insert(std::string(kindName(d.kind)));
  return out;
}

}  // namespace spvsim::testing
