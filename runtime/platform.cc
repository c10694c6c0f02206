// The one platform of this ICD and the loader's way in (clIcdGetPlatformIDsKHR). Its
// extensions are those of its one device.
#include <string>

#include "runtime/core_api.h"
#include "runtime/info_reply.h"
#include "runtime/interfaces.h"

namespace spvsim::rt {

cl_platform_id thePlatform() {
  static _cl_platform_id* p = registerObject(new _cl_platform_id);  // never released
  return p;
}

cl_int clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
  if (platforms) platforms[0] = thePlatform();
  if (num_platforms) *num_platforms = 1;
  return CL_SUCCESS;
}

cl_int clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id* platforms,
                              cl_uint* num_platforms) {
  return rt::clGetPlatformIDs(num_entries, platforms, num_platforms);
}

cl_int clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                         size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
  // NULL selects the implementation-defined platform: this one.
  if (platform && platform != thePlatform()) return CL_INVALID_PLATFORM;
  auto str = [&](const std::string& s) {
    return returnString(s, param_value_size, param_value, param_value_size_ret);
  };
  switch (param_name) {
    case CL_PLATFORM_PROFILE:
      return str("FULL_PROFILE");
    case CL_PLATFORM_VERSION:
      return str("OpenCL 3.0 spvsim");
    case CL_PLATFORM_NAME:
      return str("spvsim");
    case CL_PLATFORM_VENDOR:
      return str("spvsim");
    case CL_PLATFORM_EXTENSIONS:
      return str(joined(deviceCaps().extensions));
    case CL_PLATFORM_ICD_SUFFIX_KHR:
      return str("spvsim");
    case CL_PLATFORM_HOST_TIMER_RESOLUTION:  // nanoseconds of std::chrono::steady_clock
      return returnValue(cl_ulong{1}, param_value_size, param_value, param_value_size_ret);
    case CL_PLATFORM_NUMERIC_VERSION:
      return returnValue(cl_version{CL_MAKE_VERSION(3, 0, 0)}, param_value_size, param_value,
                         param_value_size_ret);
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
      return returnVector(withVersion(deviceCaps().extensions, CL_MAKE_VERSION(1, 0, 0)),
                          param_value_size, param_value, param_value_size_ret);
    default:
      return CL_INVALID_VALUE;
  }
}

}  // namespace spvsim::rt
