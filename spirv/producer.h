// Who made a module: the header's generator word, named from the SPIR-V registry.
#pragma once

#include <cstdint>
#include <string>

namespace spvsim::spirv {

// The registry's tool id of the Khronos LLVM/SPIR-V Translator (llvm-spirv).
inline constexpr uint32_t kLlvmSpirvTranslator = 6;

// The tool id: the generator word's high 16 bits.
inline uint32_t generatorTool(uint32_t generatorWord) { return generatorWord >> 16; }

// "Khronos LLVM/SPIR-V Translator" for tool id 6 (vendor and tool as the SPIR-V registry
// names them); "generator N" for other ids.
std::string producerName(uint32_t generatorWord);

}  // namespace spvsim::spirv
