// For host tests of the ICD: points the real ICD loader (ocl-icd, linked as -lOpenCL)
// at the libspvsim-opencl.so built with the test, before the test's first OpenCL call.
// Include it first in every test source (it also sets the OpenCL header version).
//
// The library is a data dependency of the test ("//runtime:libspvsim-opencl.so"): found
// under $TEST_SRCDIR/$TEST_WORKSPACE under `bazel test`, and under
// <binary>.runfiles/spvsim when the binary is run by hand.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace spvsim::rt::test {

// The absolute path of the built ICD library.
inline std::string icdLibraryPath() {
  std::string root;
  if (const char* srcdir = std::getenv("TEST_SRCDIR")) {
    const char* workspace = std::getenv("TEST_WORKSPACE");
    root = std::string(srcdir) + "/" + (workspace ? workspace : "spvsim");
  } else {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    root = std::string(exe, n > 0 ? n : 0) + ".runfiles/spvsim";
  }
  std::string path = root + "/runtime/libspvsim-opencl.so";
  char resolved[PATH_MAX];
  return realpath(path.c_str(), resolved) ? std::string(resolved) : path;
}

// Makes spvsim the only platform the loader sees.
inline bool useSpvsimIcd() {
  std::string path = icdLibraryPath();
  if (access(path.c_str(), R_OK) != 0)
    std::fprintf(stderr, "icd_test_env.h: %s not found (is the library a data dependency?)\n",
                 path.c_str());
  setenv("OCL_ICD_VENDORS", path.c_str(), 1);
  return true;
}

// Runs during static initialisation, before main and so before any OpenCL call.
inline const bool kSpvsimIcdSelected = useSpvsimIcd();

}  // namespace spvsim::rt::test
