// Fuzz target: load, lower and run small modules. The module from the input goes through
// Program::load (repairs, validation, decoding); its kernel is launched over a tiny
// NDRange on one host thread with small buffers bound to its pointer parameters and a
// small instruction budget, so that lowering and execution see every module the
// validator lets through. Error(DiagnosticKind::InvalidModule / DiagnosticKind::Unsupported /
// DiagnosticKind::InvalidArgument) is an accepted refusal and kernel errors are diagnostics; a
// crash, a sanitizer report, a hang or any other exception is a finding.
//
// Input: a 4-byte launch header, then a SPIR-V binary:
//   byte 0  kernel index (modulo the number of entry points)
//   byte 1  bits 0-2: sub-group size (kSubGroupSizes); bits 3-5: global size
//           (kGlobalSizes); bit 6: one work-group (local = global); bit 7: 2D (global x 2)
//   byte 2  seed of the by-value arguments' bytes
//   byte 3  bit 0: --check-uninitialized; bit 1: --check-races; bit 2: random schedule;
//           bit 3: --check-undefined
// Seeds: tools/fuzz/make_seeds.py prefixes each seed module with 4 zero bytes (its first kernel,
// sub-group size 16, global size 16, local size chosen by spvsim, no checkers).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "spirv/error.h"
#include "spirv/module.h"
#include "src/check/observers.h"
#include "src/exec/program.h"
#include "tools/fuzz/fuzz_input.h"

namespace {

using namespace spvsim;

// Limits of one run: small enough for thousands of executions per second.
constexpr uint64_t kInstructionBudget = 10'000;  // sub-group instructions per work-group
constexpr uint64_t kBufferBytes = 512;           // each global/constant buffer argument
constexpr uint64_t kLocalBytes = 256;            // each local-memory argument
constexpr uint64_t kMaxGroupSize = 256;          // larger LocalSize modes are skipped
// The cap on the host memory a program's variables and a launch may allocate
// (LaunchOptions::maxMemory, Program::load's maxMemory): far below libFuzzer's 2 GiB
// malloc limit, so an oversized request must come back as Error(DiagnosticKind::OutOfMemory).
constexpr uint64_t kFuzzMaxMemoryBytes = 64ull << 20;

constexpr uint32_t kSubGroupSizes[8] = {16, 4, 8, 1, 32, 3, 128, 5};
constexpr uint64_t kGlobalSizes[8] = {16, 8, 32, 1, 64, 12, 7, 128};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4 + 20) return -1;
  const uint8_t kernelByte = data[0], rangeByte = data[1], seed = data[2], flags = data[3];
  std::shared_ptr<Program> program;
  try {
    program = Program::load(fuzz::toWords(data + 4, size - 4), {}, kFuzzMaxMemoryBytes);
  } catch (const Error& e) {
    fuzz::refused(e);
    return 0;
  }
  const spirv::Module& module = program->module();
  if (module.entryPoints.empty()) return 0;
  const spirv::EntryPoint& ep = module.entryPoints[kernelByte % module.entryPoints.size()];

  // One binding per parameter; buffers live until the launch returns (their storage does
  // not move when `buffers` grows).
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<ArgBinding> args;
  uint8_t next = seed;
  for (const spirv::ParamSignature& p : ep.signature.params) {
    switch (p.kind) {
      case spirv::ParamKind::Value:
      case spirv::ParamKind::ByValStruct: {
        // Small values (1..8 in each 32-bit word) keep loops short and indices in range.
        std::vector<uint8_t> bytes(std::min<uint64_t>(p.size, 1024), 0);
        for (size_t i = 0; i < bytes.size(); i += 4) bytes[i] = 1 + (next++ % 8);
        args.push_back(ArgBinding::bytes(std::move(bytes)));
        break;
      }
      case spirv::ParamKind::GlobalPointer:
      case spirv::ParamKind::ConstantPointer: {
        std::vector<uint8_t>& b = buffers.emplace_back(kBufferBytes);
        for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint8_t>(i * 7 + seed);
        args.push_back(ArgBinding::buffer(b.data(), b.size()));
        break;
      }
      case spirv::ParamKind::LocalPointer:
        args.push_back(ArgBinding::local(kLocalBytes));
        break;
      default:
        return 0;  // images, samplers, pipes, queues, events cannot be bound yet
    }
  }
  NDRange range;
  if (const spirv::ExecutionMode* m = ep.findMode(spv::ExecutionMode::LocalSize);
      m && m->literals.size() == 3) {
    uint64_t product = 1;
    for (int d = 0; d < 3; ++d) {
      range.global[d] = m->literals[d];
      product *= std::max<uint64_t>(m->literals[d], 1);
    }
    if (product > kMaxGroupSize) return 0;
    range.dims = 3;
  } else {
    range.global[0] = kGlobalSizes[(rangeByte >> 3) & 7];
    if (rangeByte & 0x80) {
      range.dims = 2;
      range.global[1] = 2;
    }
    if (rangeByte & 0x40) {
      range.local = range.global;
      range.localGiven = true;
    }
  }

  LaunchOptions options;
  options.subGroupSize = kSubGroupSizes[rangeByte & 7];
  options.threads = 1;
  options.instructionBudget = kInstructionBudget;
  options.quantum = 64;
  options.observers = check::observersFor({.races = (flags & 2) != 0,
                                           .uninitialized = (flags & 1) != 0,
                                           .undefinedValues = (flags & 8) != 0});
  if (flags & 4) {
    options.schedule = LaunchOptions::Schedule::Random;
    options.scheduleSeed = seed;
  }
  options.maxMemory = kFuzzMaxMemoryBytes;
  try {
    const LaunchResult result = program->launch(program->kernel(ep.name), range, args, options);
    if (fuzz::verbose())
      std::fprintf(stderr, "launched %s: %zu diagnostics%s, %llu sub-group steps\n",
                   ep.name.c_str(), result.diagnostics.size(),
                   result.diagnostics.empty()
                       ? ""
                       : (" (" + std::string(kindName(result.diagnostics[0].kind)) + ")").c_str(),
                   static_cast<unsigned long long>(result.subGroupSteps));
  } catch (const Error& e) {
    fuzz::refused(e);
  }
  return 0;
}
