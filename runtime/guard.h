// Entry points behind a catch. An exception leaving an API function would unwind into
// the ICD loader's C frames and end the process (std::terminate), so every function an
// application can reach (the dispatch table, the extension functions, the loader's
// entry points) runs as guarded<&function>: std::bad_alloc or std::length_error (or any
// other exception) becomes CL_OUT_OF_HOST_MEMORY, which every OpenCL entry point lists
// "if there is a failure to allocate resources required by the OpenCL implementation
// on the host". Functions that return an object report it through errcode_ret (their
// last parameter) and return NULL.
#pragma once

#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>
#include <tuple>
#include <type_traits>

#include "runtime/object.h"

namespace spvsim::rt {

// What a guarded function of result R with parameters A... returns when its body threw.
template <class R, class... A>
R outOfHostMemory(A... args) {
  if constexpr (std::is_same_v<R, cl_int>) {
    return CL_OUT_OF_HOST_MEMORY;
  } else if constexpr (!std::is_void_v<R>) {
    if constexpr (sizeof...(A) > 0) {
      constexpr size_t last = sizeof...(A) - 1;
      if constexpr (std::is_same_v<std::tuple_element_t<last, std::tuple<A...>>, cl_int*>) {
        if (cl_int* errcodeRet = std::get<last>(std::tuple<A...>(args...)))
          *errcodeRet = CL_OUT_OF_HOST_MEMORY;
      }
    }
    return R{};
  }
}

template <auto F>
struct Guard;

template <class R, class... A, R (*F)(A...)>
struct Guard<F> {
  static R CL_API_CALL call(A... args) noexcept {
    try {
      return F(args...);
    } catch (const std::bad_alloc&) {
    } catch (const std::length_error&) {  // a size no allocation can have
    } catch (const std::exception& e) {   // a bug of spvsim's: say so, but do not crash
      std::fprintf(stderr, "spvsim: internal error in an OpenCL call: %s\n", e.what());
    } catch (...) {  // e.g. from an application callback the call ran
      std::fprintf(stderr, "spvsim: an exception escaped an OpenCL call\n");
    }
    return outOfHostMemory<R, A...>(args...);
  }
};

// guarded<&clFoo> has clFoo's signature.
template <auto F>
inline constexpr auto guarded = &Guard<F>::call;

}  // namespace spvsim::rt
