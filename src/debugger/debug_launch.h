// What `spvsim debug` is given to debug: one launch as a front end prepared it (the
// command line builds it from KERNEL and --arg specs or a .sim file).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "spirv/module.h"
#include "src/exec/program.h"
#include "src/files/source_copies.h"
#include "src/values/element_type.h"

namespace spvsim::debugger {

// One kernel argument as the debugger shows it (watchpoints, `x`).
struct DebugArgument {
  enum class Kind { Value, Buffer, Local, Null };
  Kind kind = Kind::Value;
  values::ElementType type;  // Buffer: its elements, as the user named them
  uint64_t count = 0;        // Buffer: elements at `bytes`
  uint8_t* bytes = nullptr;  // Buffer: the storage the launch reads and writes
  bool hex = false;          // Buffer: integers shown in hexadecimal
};

struct DebugLaunch {
  std::shared_ptr<Program> program;
  Program::Kernel kernel;
  NDRange range;
  std::vector<ArgBinding> bindings;  // what Program::launch would be given
  std::vector<DebugArgument> args;   // per parameter, the same arguments
  // As `spvsim run` would launch: schedule, checkers, budget, memory limit. Threads do
  // not apply (the session runs work-groups one at a time).
  LaunchOptions options;
  // The text printed when the kernel ends (the buffer dumps asked for), or none.
  std::function<std::string()> results;
  // Copies of sources the module's line information names (Symbols::setSourceCopies).
  files::SourceCopies sources;
};

}  // namespace spvsim::debugger
