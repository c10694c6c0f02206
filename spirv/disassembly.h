// Text forms of a module for people: whole-module disassembly and one instruction.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "spirv/module.h"

namespace spvsim::spirv {

// One line per instruction, indexed like Instruction::index, naming ids as
// `spvsim dis` does (SPIRV-Tools' friendly names: "%uint", "%in"; "%42" where an id has
// none); with `rawIds`, every id as its number. An OpenCL.DebugInfo.100 instruction that
// SPIRV-Tools cannot print (llvm-spirv-15 -g's DebugTypePointer with Storage Class ~0) is
// written from its words, with a comment saying why; throws Error(InvalidModule) naming
// SPIRV-Tools' reason when it refuses anything else.
std::vector<std::string> disassembleLines(const Module& module, bool rawIds = false);

// The friendly name (without '%') of every id that has one other than its number, as
// `spvsim dis` prints it: the result ids of the two disassemblies, line by line (none
// when SPIRV-Tools cannot disassemble the module).
std::unordered_map<Id, std::string> friendlyNames(const Module& module);
// "%uint", "%in" or "%42": one id as `spvsim dis` names it (disassembles the module: for
// messages of the loader, before ModuleFacts::idName exists).
std::string idName(const Module& module, Id id);
// The same from the two disassemblies (disassembleLines with and without rawIds).
std::unordered_map<Id, std::string> friendlyNames(const std::vector<std::string>& raw,
                                                  const std::vector<std::string>& named);

// The disassembly of the whole module, each instruction followed by its source line
// as a comment where the module has line information (throws as disassembleLines).
std::string disassembleWithLines(const Module& module);

std::string opcodeName(spv::Op op);               // "OpIAdd"; "Op<N>" if unknown
std::string openclStdName(uint32_t instruction);  // "mad"; "<N>" if unknown

}  // namespace spvsim::spirv
