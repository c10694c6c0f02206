// A counted reference to an ICD object, for commands that must keep their objects
// alive until they have run (std::function needs a copyable capture).
#pragma once

#include "runtime/object.h"

namespace spvsim::rt {

template <class T>
class Ref {
 public:
  explicit Ref(T* p) : p_(p) { retain(p_); }
  Ref(const Ref& o) : p_(o.p_) { retain(p_); }
  Ref& operator=(const Ref&) = delete;
  ~Ref() { release(p_); }
  T* get() const { return p_; }
  T* operator->() const { return p_; }

 private:
  T* p_;
};

}  // namespace spvsim::rt
