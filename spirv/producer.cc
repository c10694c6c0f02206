#include "spirv/producer.h"

#include <fmt/core.h>

namespace spvsim::spirv {
namespace {

struct Tool {
  uint32_t id;
  const char* name;
};

// From the SPIR-V registry (SPIRV-Headers' spir-v.xml, "SPIR-V Tool IDs"): the
// producers of OpenCL and compute SPIR-V, and the common shader front ends.
constexpr Tool kTools[] = {
    {6, "Khronos LLVM/SPIR-V Translator"},
    {7, "Khronos SPIR-V Tools Assembler"},
    {8, "Khronos Glslang Reference Front End"},
    {13, "Google Shaderc over Glslang"},
    {14, "Google spiregg"},
    {15, "Google rspirv"},
    {17, "Khronos SPIR-V Tools Linker"},
    {21, "Google Clspv"},
    {22, "Google MLIR SPIR-V Serializer"},
    {23, "Google Tint Compiler"},
    {27, "Embark Studios Rust GPU Compiler Backend"},
    {28, "gfx-rs community Naga"},
    {35, "Saarland University Shady"},
    {36, "Taichi Graphics Taichi"},
};

}  // namespace

std::string producerName(uint32_t generatorWord) {
  const uint32_t tool = generatorTool(generatorWord);
  for (const Tool& t : kTools)
    if (t.id == tool) return t.name;
  return fmt::format("generator {}", tool);
}

}  // namespace spvsim::spirv
