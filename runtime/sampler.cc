// Samplers: creation (with the spec's checks on addressing and filter modes), queries
// and reference counting. A kernel's sampler argument copies the state
// (ArgBinding::ofSampler), so a launch needs no reference to the object.
#include "runtime/sampler.h"

#include "runtime/core_api.h"
#include "runtime/info_reply.h"
#include "runtime/interfaces.h"

_cl_sampler::~_cl_sampler() { spvsim::rt::release(context); }

namespace spvsim::rt {
namespace {

bool validAddressing(cl_addressing_mode m) {
  return m == CL_ADDRESS_NONE || m == CL_ADDRESS_CLAMP_TO_EDGE || m == CL_ADDRESS_CLAMP ||
         m == CL_ADDRESS_REPEAT || m == CL_ADDRESS_MIRRORED_REPEAT;
}

// CL_INVALID_VALUE for an unknown mode, and for repeat modes without normalized
// coordinates (the OpenCL C spec allows them with normalized coordinates only).
cl_int checkState(cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter) {
  if (normalized != CL_TRUE && normalized != CL_FALSE) return CL_INVALID_VALUE;
  if (!validAddressing(addressing)) return CL_INVALID_VALUE;
  if (filter != CL_FILTER_NEAREST && filter != CL_FILTER_LINEAR) return CL_INVALID_VALUE;
  if (!normalized && (addressing == CL_ADDRESS_REPEAT || addressing == CL_ADDRESS_MIRRORED_REPEAT))
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

cl_sampler createSampler(cl_context context, cl_bool normalized, cl_addressing_mode addressing,
                         cl_filter_mode filter, std::vector<cl_sampler_properties> properties,
                         cl_int* errcode_ret) {
  if (!checked<_cl_context>(context, Kind::Context))
    return withError<cl_sampler>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  if (cl_int err = checkState(normalized, addressing, filter))
    return withError<cl_sampler>(errcode_ret, err, nullptr);
  auto* s = registerObject(new _cl_sampler);
  retain(context);
  s->context = context;
  s->state = {normalized == CL_TRUE, addressing, filter};
  s->properties = std::move(properties);
  return withError<cl_sampler>(errcode_ret, CL_SUCCESS, s);
}

// Reads a 0-terminated property list into `state`; false on an unknown or repeated name.
bool readProperties(const cl_sampler_properties* p, cl_bool& normalized,
                    cl_addressing_mode& addressing, cl_filter_mode& filter,
                    std::vector<cl_sampler_properties>& copy) {
  bool seen[3] = {};
  for (; p && *p; p += 2) {
    copy.insert(copy.end(), {p[0], p[1]});
    int which = p[0] == CL_SAMPLER_NORMALIZED_COORDS ? 0
                : p[0] == CL_SAMPLER_ADDRESSING_MODE ? 1
                : p[0] == CL_SAMPLER_FILTER_MODE     ? 2
                                                     : -1;
    if (which < 0 || seen[which]) return false;
    seen[which] = true;
    if (which == 0) normalized = static_cast<cl_bool>(p[1]);
    if (which == 1) addressing = static_cast<cl_addressing_mode>(p[1]);
    if (which == 2) filter = static_cast<cl_filter_mode>(p[1]);
  }
  if (p) copy.push_back(0);
  return true;
}

}  // namespace

cl_sampler clCreateSampler(cl_context context, cl_bool normalized_coords,
                           cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                           cl_int* errcode_ret) {
  return createSampler(context, normalized_coords, addressing_mode, filter_mode, {}, errcode_ret);
}

// Defaults per the spec: normalized coordinates, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST.
cl_sampler clCreateSamplerWithProperties(cl_context context,
                                         const cl_sampler_properties* sampler_properties,
                                         cl_int* errcode_ret) {
  if (!checked<_cl_context>(context, Kind::Context))
    return withError<cl_sampler>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  cl_bool normalized = CL_TRUE;
  cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
  cl_filter_mode filter = CL_FILTER_NEAREST;
  std::vector<cl_sampler_properties> copy;
  if (!readProperties(sampler_properties, normalized, addressing, filter, copy))
    return withError<cl_sampler>(errcode_ret, CL_INVALID_VALUE, nullptr);
  return createSampler(context, normalized, addressing, filter, std::move(copy), errcode_ret);
}

cl_int clRetainSampler(cl_sampler sampler) {
  _cl_sampler* s = checked<_cl_sampler>(sampler, Kind::Sampler);
  return s && retainHandle(s) ? CL_SUCCESS : CL_INVALID_SAMPLER;
}

cl_int clReleaseSampler(cl_sampler sampler) {
  _cl_sampler* s = checked<_cl_sampler>(sampler, Kind::Sampler);
  return s && releaseHandle(s) ? CL_SUCCESS : CL_INVALID_SAMPLER;
}

cl_int clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size,
                        void* param_value, size_t* param_value_size_ret) {
  _cl_sampler* s = checked<_cl_sampler>(sampler, Kind::Sampler);
  if (!s) return CL_INVALID_SAMPLER;
  InfoReply r{param_value_size, param_value, param_value_size_ret};
  switch (param_name) {
    case CL_SAMPLER_REFERENCE_COUNT:
      return r.scalar(s->refs.load());
    case CL_SAMPLER_CONTEXT:
      return r.scalar(s->context);
    case CL_SAMPLER_NORMALIZED_COORDS:
      return r.boolean(s->state.normalizedCoords);
    case CL_SAMPLER_ADDRESSING_MODE:
      return r.scalar(cl_addressing_mode{s->state.addressing});
    case CL_SAMPLER_FILTER_MODE:
      return r.scalar(cl_filter_mode{s->state.filter});
    case CL_SAMPLER_PROPERTIES:
      return r.vector(s->properties);
    default:
      return CL_INVALID_VALUE;
  }
}

}  // namespace spvsim::rt
