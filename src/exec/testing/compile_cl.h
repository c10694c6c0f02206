// Test support: OpenCL C -> SPIR-V words with clang-15 + llvm-spirv-15 (the toolchain
// the project installs), so tests state kernels in source form. Deliberately not the
// compile driver (src/compiler/): the simulator's and the loader's tests want the
// translator's output as it is, defects included (src/exec/repairs_test.cc).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace spvsim::testing {

// Throws std::runtime_error with the compiler's output on failure.
std::vector<uint32_t> compileOpenCL(const std::string& source, const std::string& extraFlags = "");

// Reads a whole file; throws on failure.
std::string readFile(const std::string& path);

}  // namespace spvsim::testing
