// The out-parameters of one clGet*Info call, so that a query's switch can answer in
// one expression per parameter: `return r.value(cl_uint{3});`.
#pragma once

#include <string>
#include <vector>

#include "runtime/object.h"

namespace spvsim::rt {

struct InfoReply {
  size_t size;
  void* value;
  size_t* sizeRet;

  template <class T>
  cl_int scalar(const T& v) const {
    return returnValue(v, size, value, sizeRet);
  }
  cl_int string(const std::string& s) const { return returnString(s, size, value, sizeRet); }
  template <class T>
  cl_int vector(const std::vector<T>& v) const {
    return returnVector(v, size, value, sizeRet);
  }
  cl_int boolean(bool b) const { return scalar(cl_bool(b ? CL_TRUE : CL_FALSE)); }
};

// Names joined by single spaces (CL_*_EXTENSIONS strings).
inline std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : " ") + n;
  return s;
}

// Names with one version each (CL_*_EXTENSIONS_WITH_VERSION and the like).
inline std::vector<cl_name_version> withVersion(const std::vector<std::string>& names,
                                                cl_version version) {
  std::vector<cl_name_version> v;
  for (const auto& n : names) {
    cl_name_version nv{version, {}};
    n.copy(nv.name, sizeof nv.name - 1);
    v.push_back(nv);
  }
  return v;
}

}  // namespace spvsim::rt
