// Text forms of a module for people: whole-module disassembly and one instruction.
#pragma once

#include <string>
#include <vector>

#include "spirv/module.h"

namespace spvsim::spirv {

// One line per instruction, indexed like Instruction::index, with raw ids ("%42")
// so that the text names the same ids as diagnostics do.
std::vector<std::string> disassembleLines(const Module& module);
// The same with the friendly names `spvsim dis` prints ("%uint", "%in"), for reports.
std::vector<std::string> disassembleFriendlyLines(const Module& module);

// The disassembly of the whole module, each instruction followed by its source line
// as a comment where the module has line information.
std::string disassembleWithLines(const Module& module);

std::string opcodeName(spv::Op op);               // "OpIAdd"; "Op<N>" if unknown
std::string openclStdName(uint32_t instruction);  // "mad"; "<N>" if unknown

}  // namespace spvsim::spirv
