// What `spvsim debug` knows about a kernel's code: source lines, functions, value names
// and breakpoint locations. Built once per session from the module and the lowered kernel.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/module.h"
#include "src/exec/lowered.h"
#include "src/files/source_copies.h"

namespace spvsim::debugger {

// A mistake in a debugger command (unknown name, bad lane, ...): the message is printed
// and the session goes on.
class DebugError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where a breakpoint stops: the first instruction of each stretch of code of a line, a
// function's entry, or the instructions lowered from one SPIR-V result id.
struct CodeLocation {
  std::vector<uint32_t> pcs;
  std::string description;  // "k.cl:9", "function twice", "%42"
  std::string note;         // "no code at k.cl:8; using line 9", or ""
};

class Symbols {
 public:
  Symbols(const spirv::Module& module, const LoweredKernel& kernel);

  const spirv::Module& module() const { return module_; }
  const LoweredKernel& kernel() const { return kernel_; }

  // Source line of the instruction at `pc` ({} when it has none).
  spirv::SourceLine lineAt(uint32_t pc) const;
  bool hasLineInfo() const { return hasLines_; }
  // The OpString's last path component, or the name a copy is shown by (a program
  // compiled from memory, "<stdin>", as the capture bundle's APP.cl).
  std::string fileName(spirv::Id file) const;
  // Copies of sources that the module's paths do not reach (a capture bundle's program
  // and headers), read in their place.
  void setSourceCopies(files::SourceCopies copies) { copies_ = std::move(copies); }
  // The copies of the sources a bundle carries (empty for other inputs).
  const files::SourceCopies& sourceCopies() const { return copies_; }
  std::string filePath(spirv::Id file) const;    // as the module records it
  std::string sourcePath(spirv::Id file) const;  // where its text is read: a copy, or filePath
  std::string where(uint32_t pc) const;          // "k.cl:9", or "" without a line
  // The SPIR-V instruction at `pc` ("%53 = OpUMod %uint %52 %uint_2"); a function's
  // virtual exit reads "(exit of function twice)".
  std::string instructionText(uint32_t pc) const;
  std::string describe(uint32_t pc) const;  // "k.cl:9  %53 = OpUMod ..."

  uint32_t functionAt(uint32_t pc) const;  // index into LoweredKernel::functions
  const std::string& functionName(uint32_t function) const;
  bool isFunctionExit(uint32_t pc) const;
  std::optional<uint32_t> findFunction(std::string_view name) const;
  // Where `break FUNCTION` stops: the first instruction with a source line that is not
  // a store of a parameter into its variable (clang's -O0 prologue), so that parameters
  // read back; the entry when there is none.
  uint32_t afterPrologue(uint32_t function) const;

  // Parses "FILE:LINE", "LINE" (in `currentFile`), "%ID" or "FUNCTION". Throws DebugError.
  CodeLocation resolve(std::string_view text, spirv::Id currentFile) const;

  // The value called `name` seen from `function` at SPIR-V instruction `src`: a
  // debug-info variable or OpName of that function first, then of the module, then of
  // any other function. nullptr when there is none.
  const ValueName* findName(std::string_view name, uint32_t function, uint32_t src) const;
  bool hasName(std::string_view name) const;  // bound anywhere in the kernel
  // One binding per name visible in `function` (its variables and parameters), sorted.
  std::vector<const ValueName*> localNames(uint32_t function, uint32_t src) const;
  // The names of function `function`'s parameters, in parameter order (debug info's
  // ArgNumber, else the parameters' OpName), as localNames picks them at `src`.
  std::vector<const ValueName*> argumentNames(uint32_t function, uint32_t src) const;

  // The source text of a file, one string per line (read on first use; empty when the
  // file cannot be read).
  const std::vector<std::string>& sourceLines(spirv::Id file) const;
  spirv::Id mainFile() const { return mainFile_; }  // the entry kernel's file, or 0

 private:
  std::vector<spirv::Id> filesMatching(std::string_view text) const;
  CodeLocation lineLocation(spirv::Id file, uint32_t line) const;
  std::vector<uint32_t> lineSites(spirv::Id file, uint32_t line) const;
  const ValueName* pick(std::string_view name, uint32_t function, uint32_t src) const;
  void buildDominators();
  std::optional<uint64_t> bindingDistance(uint32_t from, uint32_t src) const;
  const spirv::Instruction* instructionAt(uint32_t pc) const;

  // Where each SPIR-V instruction is (by index): its function in the module, block and
  // position; and each function's immediate dominators (-1: none). DebugValue bindings
  // reach an instruction along its dominator tree.
  struct Place {
    uint32_t function = ~0u;
    int block = -1;
    uint32_t position = 0;
  };
  std::vector<Place> places_;
  std::vector<std::vector<int>> idom_;
  std::vector<std::vector<uint32_t>> blockSizes_;

  const spirv::Module& module_;
  const LoweredKernel& kernel_;
  std::vector<spirv::SourceLine> lineByIndex_;  // by spirv instruction index
  std::vector<uint32_t> functionOfPc_;
  std::vector<uint32_t> resultIndex_;  // by result id: spirv index + 1 (0: none)
  bool hasLines_ = false;
  spirv::Id mainFile_ = 0;
  mutable std::map<spirv::Id, std::vector<std::string>> sources_;
  files::SourceCopies copies_;
};

}  // namespace spvsim::debugger
