// Text forms of a module for people: whole-module disassembly and one instruction.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "spirv/module.h"

namespace spvsim::spirv {

// One line per instruction, indexed like Instruction::index, naming ids as
// `spvsim dis` does (SPIRV-Tools' friendly names: "%uint", "%in"; "%42" where an id has
// none); with `rawIds`, every id as its number.
std::vector<std::string> disassembleLines(const Module& module, bool rawIds = false);

// The friendly name (without '%') of every id that has one other than its number, as
// `spvsim dis` prints it: the result ids of the two disassemblies, line by line.
std::unordered_map<Id, std::string> friendlyNames(const Module& module);
// "%uint", "%in" or "%42": one id as `spvsim dis` names it (disassembles the module: for
// messages of the loader, before ModuleFacts::idName exists).
std::string idName(const Module& module, Id id);
// The same from the two disassemblies (disassembleLines with and without rawIds).
std::unordered_map<Id, std::string> friendlyNames(const std::vector<std::string>& raw,
                                                  const std::vector<std::string>& named);

// The disassembly of the whole module, each instruction followed by its source line
// as a comment where the module has line information.
std::string disassembleWithLines(const Module& module);

std::string opcodeName(spv::Op op);               // "OpIAdd"; "Op<N>" if unknown
std::string openclStdName(uint32_t instruction);  // "mad"; "<N>" if unknown

}  // namespace spvsim::spirv
