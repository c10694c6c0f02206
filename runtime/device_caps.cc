// What the device supports, in one place: clGetDeviceInfo reports it and programs and
// kernels (runtime/program*.cc) check against it. Only what spvsim really executes is
// claimed; images are a later issue.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "runtime/interfaces.h"
#include "runtime/knobs.h"
#include "src/compiler/opencl_c_support.h"
#include "src/exec/program.h"

namespace spvsim::rt {
namespace {

// The OpenCL C extensions and features are the compile driver's (src/compiler/
// opencl_c_support.h), so kernels see exactly what the device reports; the ICD adds its
// own API extensions.
std::vector<std::string> extensions() {
  std::vector<std::string> v = {"cl_khr_icd", "cl_khr_il_program"};
  const std::vector<std::string>& language = compiler::supportedExtensions();
  v.insert(v.end(), language.begin(), language.end());
  return v;
}

// The SPIR-V versions spirv/ validates and loads (spirv/validator.cc: 1.0 to 1.6).
std::vector<cl_name_version> ils() {
  std::vector<cl_name_version> v;
  for (cl_uint minor = 0; minor <= 6; ++minor) {
    cl_name_version nv{CL_MAKE_VERSION(1, minor, 0), "SPIR-V"};
    v.push_back(nv);
  }
  return v;
}

// CL_DEVICE_SUB_GROUP_SIZES_INTEL: the sizes Intel GPUs report (8, 16, 32) and the
// configured default (SPVSIM_SUB_GROUP_SIZE). Each kernel runs at its
// intel_reqd_sub_group_size, else at the default; spvsim runs any size in 1..128.
std::vector<size_t> subGroupSizes(uint32_t configured) {
  std::vector<size_t> v{8, 16, 32};
  if (std::find(v.begin(), v.end(), configured) == v.end()) v.push_back(configured);
  std::sort(v.begin(), v.end());
  return v;
}

// The host CPU's clock in MHz, which runs the simulated device: the maximum cpufreq
// reports, else /proc/cpuinfo's current "cpu MHz", else 1 (unknown, but the query's
// value must be a clock).
cl_uint hostClockMHz() {
  if (std::ifstream f("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"); f) {
    unsigned long khz = 0;
    if (f >> khz && khz >= 1000) return cl_uint(khz / 1000);
  }
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);) {
    if (line.rfind("cpu MHz", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    const double mhz = std::strtod(line.c_str() + colon + 1, nullptr);
    if (mhz >= 1) return cl_uint(mhz + 0.5);
    break;
  }
  return 1;
}

cl_ulong physicalMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && pageSize > 0 ? cl_ulong(pages) * cl_ulong(pageSize) : cl_ulong(1) << 32;
}

DeviceCaps makeCaps() {
  DeviceCaps c;
  unsigned threads = knobs().threads ? knobs().threads : std::thread::hardware_concurrency();
  c.computeUnits = std::max(1u, threads);
  c.maxWorkGroupSize = kDeviceMaxWorkGroupSize;
  c.globalMemSize = physicalMemory();
  c.localMemSize = kDeviceLocalMemSize;
  // The host's memory is the device's; one allocation may take a quarter of it (and at
  // least the 128 MiB the spec requires).
  c.maxMemAllocSize = std::max<cl_ulong>(c.globalMemSize / 4, cl_ulong(128) << 20);
  c.maxParameterSize = 1024;
  c.subGroupSize = knobs().subGroupSize;
  c.subGroupSizes = subGroupSizes(c.subGroupSize);
  // Any kernel's largest work-group at the smallest advertised size (at the default,
  // 16, a kernel asking for 8 would have more).
  c.maxNumSubGroups = static_cast<cl_uint>((kDeviceMaxWorkGroupSize + c.subGroupSizes.front() - 1) /
                                           c.subGroupSizes.front());
  c.maxClockMHz = hostClockMHz();
  c.extensions = extensions();
  c.openclCFeatures = compiler::supportedFeatures();
  c.ils = ils();
  return c;
}

}  // namespace

const DeviceCaps& deviceCaps() {
  // Immutable once built, and never destroyed: queue workers may still launch kernels
  // while the process runs its static destructors.
  static const DeviceCaps* caps = new DeviceCaps(makeCaps());
  return *caps;
}

}  // namespace spvsim::rt
