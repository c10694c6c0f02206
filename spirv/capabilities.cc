// Which capabilities spvsim executes. A module declaring any other capability is
// rejected up front with the capability's name, instead of failing mid-run.
#include <fmt/core.h>

#include "spirv/disassembly.h"
#include "spirv/error.h"
#include "spirv/grammar_tables.inc"
#include "spirv/module.h"

namespace spvsim::spirv {
namespace {

using spv::Capability;

bool isSupported(Capability c) {
  switch (c) {
    case Capability::Addresses:
    case Capability::Linkage:
    case Capability::Kernel:
    case Capability::Vector16:
    case Capability::Float16Buffer:
    case Capability::Float16:
    case Capability::Float64:
    case Capability::Int64:
    case Capability::Int16:
    case Capability::Int8:
    case Capability::GenericPointer:
    case Capability::Int64Atomics:
    case Capability::AtomicFloat16AddEXT:
    case Capability::AtomicFloat32AddEXT:
    case Capability::AtomicFloat64AddEXT:
    case Capability::AtomicFloat16MinMaxEXT:
    case Capability::AtomicFloat32MinMaxEXT:
    case Capability::AtomicFloat64MinMaxEXT:
    case Capability::Groups:
    case Capability::Pipes:
    case Capability::GroupNonUniform:
    case Capability::GroupNonUniformVote:
    case Capability::GroupNonUniformArithmetic:
    case Capability::GroupNonUniformBallot:
    case Capability::GroupNonUniformShuffle:
    case Capability::GroupNonUniformShuffleRelative:
    case Capability::GroupNonUniformClustered:
    case Capability::GroupUniformArithmeticKHR:
    case Capability::GroupNonUniformRotateKHR:
    case Capability::SubgroupShuffleINTEL:
    case Capability::SubgroupBufferBlockIOINTEL:
    case Capability::SubgroupDispatch:
    // Images and samplers (src/exec/ops/image_*.cc) and Intel image block I/O.
    case Capability::ImageBasic:
    case Capability::ImageReadWrite:
    case Capability::LiteralSampler:
    case Capability::Sampled1D:
    case Capability::Image1D:
    case Capability::SampledBuffer:
    case Capability::ImageBuffer:
    case Capability::SubgroupImageBlockIOINTEL:
    case Capability::SubgroupImageMediaBlockIOINTEL:
    case Capability::ArbitraryPrecisionIntegersINTEL:
    case Capability::KernelAttributesINTEL:
    case Capability::ExpectAssumeKHR:
    case Capability::Int64ImageEXT:
    case Capability::OptNoneINTEL:       // a function-control hint (clang -O0)
    case Capability::UniformDecoration:  // Uniform/UniformId decorations are hints
    case Capability::DeviceEnqueue:      // src/exec/device_enqueue.h
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string capabilityName(Capability c) {
  for (const auto& row : grammar::kCapabilities)
    if (row.value == static_cast<uint32_t>(c)) return row.name;
  return fmt::format("Capability{}", static_cast<uint32_t>(c));
}

void checkSupported(const Module& module) {
  for (Capability c : module.capabilities)
    if (!isSupported(c))
      throw Error(
          DiagnosticKind::Unsupported,
          fmt::format("unsupported: capability {} is not supported by spvsim", capabilityName(c)));
  // Physical32 modules run with 32-bit pointers and size_t (src/DESIGN.md, "32-bit
  // modules"); a front end that is a 64-bit device refuses them itself (the ICD).
  if (module.addressing != spv::AddressingModel::Physical64 &&
      module.addressing != spv::AddressingModel::Physical32)
    throw Error(DiagnosticKind::Unsupported,
                "unsupported: only the Physical64 and Physical32 addressing models are "
                "supported (compile OpenCL C with -target spir64 or -target spir)");
}

}  // namespace spvsim::spirv
