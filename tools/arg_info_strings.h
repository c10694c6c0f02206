// Kernel argument type names and type qualifiers as the OpenCL C source declares them.
// clang records them as kernel_arg_type / kernel_arg_type_qual metadata, which
// llvm-spirv-15 drops (SPIR-V loses signedness and `const`; clang's optimizer even adds
// NoWrite to pointers the source does not declare const). They are carried into the
// module as OpStrings "kernel_arg_type.<kernel>.<t0>,<t1>," (the form the loader reads)
// and "kernel_arg_type_qual.<kernel>.<q0>,<q1>,", for clGetKernelArgInfo.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spvsim::tools {

// The strings for every kernel defined in textual LLVM IR (llvm-dis output).
std::vector<std::string> kernelArgStrings(std::string_view llvmIr);

// The module with an OpString for each of `strings` (fresh result ids).
std::vector<uint32_t> withOpStrings(std::vector<uint32_t> words,
                                    const std::vector<std::string>& strings);

}  // namespace spvsim::tools
