// clGetExtensionFunctionAddressForPlatform: the functions of the extensions the
// platform reports (CL_PLATFORM_EXTENSIONS), by name (guarded as the dispatch table's).
#include <algorithm>
#include <cstring>

#include "runtime/core_api.h"
#include "runtime/guard.h"
#include "runtime/interfaces.h"
#include "runtime/program_api.h"

namespace spvsim::rt {
namespace {

struct ExtensionFunction {
  const char* extension;
  const char* name;
  void* address;
};

bool deviceHasExtension(const char* extension) {
  const auto& e = deviceCaps().extensions;
  return std::find(e.begin(), e.end(), extension) != e.end();
}

}  // namespace

void* extensionFunctionAddress(const char* func_name) {
  if (!func_name) return nullptr;
  static const ExtensionFunction kFunctions[] = {
      {"cl_khr_icd", "clIcdGetPlatformIDsKHR",
       reinterpret_cast<void*>(guarded<&clIcdGetPlatformIDsKHR>)},
      {"cl_khr_il_program", "clCreateProgramWithILKHR",
       reinterpret_cast<void*>(guarded<&clCreateProgramWithILKHR>)},
      {"cl_khr_subgroups", "clGetKernelSubGroupInfoKHR",
       reinterpret_cast<void*>(guarded<&clGetKernelSubGroupInfoKHR>)},
  };
  for (const ExtensionFunction& f : kFunctions)
    if (std::strcmp(f.name, func_name) == 0 && deviceHasExtension(f.extension)) return f.address;
  return nullptr;
}

void* clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* func_name) {
  if (!checked<_cl_platform_id>(platform, Kind::Platform)) return nullptr;
  return extensionFunctionAddress(func_name);
}

}  // namespace spvsim::rt
