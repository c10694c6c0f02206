// Sampler objects (clCreateSampler*): the state a kernel's sampler_t argument carries.
#pragma once

#include <vector>

#include "runtime/object.h"
#include "src/exec/image.h"

struct _cl_sampler : spvsim::rt::Object {
  _cl_sampler() : Object(spvsim::rt::Kind::Sampler) {}
  cl_context context = nullptr;  // retained
  spvsim::SamplerDesc state;
  std::vector<cl_sampler_properties> properties;  // as given, 0-terminated (empty if none)
  ~_cl_sampler();
};
