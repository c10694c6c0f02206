// What OpenCL C spvsim's device supports, in one place: the compile driver predefines
// exactly these extension and feature macros, and the OpenCL runtime reports the same
// lists (CL_DEVICE_EXTENSIONS, CL_DEVICE_OPENCL_C_FEATURES).
#pragma once

#include <string>
#include <vector>

namespace spvsim::compiler {

// The device's OpenCL version, 100 * major + 10 * minor (CL_DEVICE_VERSION "OpenCL 3.0"):
// the value of __OPENCL_VERSION__ in kernels.
constexpr int kDeviceOpenCLVersion = 300;

// OpenCL C extensions: each has a predefined macro of its name in kernels.
const std::vector<std::string>& supportedExtensions();

// OpenCL C 3.0 optional features (`__opencl_c_*` macros).
const std::vector<std::string>& supportedFeatures();

// The OpenCL C version (100 * major + 10 * minor) that a -cl-std= value names: 120 for
// CL1.x, 200 for CL2.0 and C++ for OpenCL 1.0, 300 for CL3.0 and C++ for OpenCL 2021.
int openclCVersion(const std::string& clStd);

// The clang-15 arguments that make exactly the supported extensions (and, for OpenCL C
// 3.0, features) available: `-Xclang -cl-ext=-all,+…` for those clang knows and `-D` for
// the others (clang-15's header tests some of those, e.g. cl_khr_subgroup_ballot, which
// it defines itself only from OpenCL C 2.0 on).
std::vector<std::string> featureArguments(int openclCVersion);

// Macros that clang-15 or its opencl-c-base.h define by themselves for the spir64 target
// although spvsim's device does not support them (__IMAGE_SUPPORT__, __opencl_c_pipes,
// cl_khr_integer_dot_product, ...): the prelude undefines them.
std::vector<std::string> unsupportedPredefinedMacros();

}  // namespace spvsim::compiler
