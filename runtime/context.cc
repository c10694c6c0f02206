// Contexts: one device (the only one), properties, destructor callbacks.
#include <algorithm>

#include "runtime/core_api.h"
#include "runtime/info_reply.h"
#include "runtime/interfaces.h"

_cl_context::~_cl_context() {
  for (auto it = destructorCallbacks.rbegin(); it != destructorCallbacks.rend(); ++it)
    it->first(this, it->second);
  for (cl_device_id d : devices) spvsim::rt::clReleaseDevice(d);
}

namespace spvsim::rt {
namespace {

// Validates a 0-terminated property list and copies it (with its 0) into `out`.
cl_int parseProperties(const cl_context_properties* properties,
                       std::vector<cl_context_properties>& out) {
  if (!properties) return CL_SUCCESS;
  std::vector<cl_context_properties> seen;
  for (const cl_context_properties* p = properties; *p; p += 2) {
    if (std::find(seen.begin(), seen.end(), p[0]) != seen.end()) return CL_INVALID_PROPERTY;
    seen.push_back(p[0]);
    switch (p[0]) {
      case CL_CONTEXT_PLATFORM:
        if (reinterpret_cast<cl_platform_id>(p[1]) != thePlatform()) return CL_INVALID_PLATFORM;
        break;
      case CL_CONTEXT_INTEROP_USER_SYNC:
        if (p[1] != CL_TRUE && p[1] != CL_FALSE) return CL_INVALID_PROPERTY;
        break;
      default:  // includes the sharing properties: no sharing extension is supported
        return CL_INVALID_PROPERTY;
    }
    out.insert(out.end(), p, p + 2);
  }
  out.push_back(0);
  return CL_SUCCESS;
}

using NotifyFn = void(CL_CALLBACK*)(const char*, const void*, size_t, void*);

cl_context makeContext(std::vector<cl_context_properties> props, std::vector<cl_device_id> devices,
                       NotifyFn notify, void* userData) {
  auto* c = registerObject(new _cl_context);
  c->properties = std::move(props);
  c->devices = std::move(devices);
  for (cl_device_id d : c->devices) rt::clRetainDevice(d);
  c->notify = notify;
  c->notifyData = userData;
  return c;
}

_cl_context* validContext(cl_context context) {
  return checked<_cl_context>(context, Kind::Context);
}

}  // namespace

cl_context clCreateContext(const cl_context_properties* properties, cl_uint num_devices,
                           const cl_device_id* devices, NotifyFn pfn_notify, void* user_data,
                           cl_int* errcode_ret) {
  std::vector<cl_context_properties> props;
  if (cl_int err = parseProperties(properties, props)) return withError(errcode_ret, err, nullptr);
  if (!devices || num_devices == 0 || (!pfn_notify && user_data))
    return withError<cl_context>(errcode_ret, CL_INVALID_VALUE, nullptr);
  std::vector<cl_device_id> unique;
  for (cl_uint i = 0; i < num_devices; ++i) {
    if (!checked<_cl_device_id>(devices[i], Kind::Device))
      return withError<cl_context>(errcode_ret, CL_INVALID_DEVICE, nullptr);
    if (std::find(unique.begin(), unique.end(), devices[i]) == unique.end())  // duplicates
      unique.push_back(devices[i]);                                           // are ignored
  }
  return withError(errcode_ret, CL_SUCCESS,
                   makeContext(std::move(props), std::move(unique), pfn_notify, user_data));
}

cl_context clCreateContextFromType(const cl_context_properties* properties,
                                   cl_device_type device_type, NotifyFn pfn_notify, void* user_data,
                                   cl_int* errcode_ret) {
  std::vector<cl_context_properties> props;
  if (cl_int err = parseProperties(properties, props)) return withError(errcode_ret, err, nullptr);
  if (!pfn_notify && user_data)
    return withError<cl_context>(errcode_ret, CL_INVALID_VALUE, nullptr);
  cl_device_id device = nullptr;
  cl_uint count = 0;
  cl_int err = rt::clGetDeviceIDs(thePlatform(), device_type, 1, &device, &count);
  if (err != CL_SUCCESS) return withError<cl_context>(errcode_ret, err, nullptr);
  return withError(errcode_ret, CL_SUCCESS,
                   makeContext(std::move(props), {device}, pfn_notify, user_data));
}

cl_int clRetainContext(cl_context context) {
  _cl_context* c = validContext(context);
  return c && retainHandle(c) ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

cl_int clReleaseContext(cl_context context) {
  _cl_context* c = validContext(context);
  return c && releaseHandle(c) ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

cl_int clGetContextInfo(cl_context context, cl_context_info param_name, size_t param_value_size,
                        void* param_value, size_t* param_value_size_ret) {
  _cl_context* c = validContext(context);
  if (!c) return CL_INVALID_CONTEXT;
  InfoReply r{param_value_size, param_value, param_value_size_ret};
  switch (param_name) {
    case CL_CONTEXT_REFERENCE_COUNT:
      return r.scalar(c->refs.load());
    case CL_CONTEXT_NUM_DEVICES:
      return r.scalar(static_cast<cl_uint>(c->devices.size()));
    case CL_CONTEXT_DEVICES:
      return r.vector(c->devices);
    case CL_CONTEXT_PROPERTIES:
      return r.vector(c->properties);
    default:
      return CL_INVALID_VALUE;
  }
}

cl_int clSetContextDestructorCallback(cl_context context,
                                      void(CL_CALLBACK* pfn_notify)(cl_context, void*),
                                      void* user_data) {
  _cl_context* c = validContext(context);
  if (!c) return CL_INVALID_CONTEXT;
  if (!pfn_notify) return CL_INVALID_VALUE;
  std::lock_guard lock(c->mutex);
  c->destructorCallbacks.emplace_back(pfn_notify, user_data);
  return CL_SUCCESS;
}

}  // namespace spvsim::rt
