// Test helpers for the OpenCL.std families: compile OpenCL C with clang-15 +
// llvm-spirv-15 at test time and run one-dimensional NDRanges over host vectors.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "spirv/loader.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim::testing {

// OpenCL C -> SPIR-V words, the way src/DESIGN.md's `.cl` front end does it; a compiler
// failure fails the test and yields an empty module.
inline std::vector<uint32_t> compileOpenCl(const std::string& source, const std::string& name) {
  try {
    return compileOpenCL(source);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "compiling " << name << " failed: " << e.what();
    return {};
  }
}

inline std::shared_ptr<Program> loadOpenCl(const std::string& source, const std::string& name) {
  return Program::load(compileOpenCl(source, name));
}

template <class T>
ArgBinding bind(std::vector<T>& v) {
  return bufferOf(v);
}

// Runs `kernel` over `global` work-items (sub-group size `sgSize`) with buffer args.
template <class... V>
LaunchResult run(Program& p, const std::string& kernel, uint64_t global,
                 std::vector<V>&... buffers) {
  NDRange range;
  range.global[0] = global;
  LaunchOptions options;
  options.subGroupSize = 8;
  return p.launch(kernel, range, {bind(buffers)...}, options);
}

template <class T>
uint64_t bitsOf(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

// Same value, or both NaN; +0 and -0 differ.
template <class T>
::testing::AssertionResult sameFloat(T expected, T actual) {
  if (std::isnan(double(expected)) && std::isnan(double(actual)))
    return ::testing::AssertionSuccess();
  if (bitsOf(expected) == bitsOf(actual)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "expected " << double(expected) << " (bits 0x" << std::hex << bitsOf(expected)
         << "), got " << double(actual) << " (bits 0x" << bitsOf(actual) << ")";
}

}  // namespace spvsim::testing
