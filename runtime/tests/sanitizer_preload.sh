# Sourced by the shell tests that load libspvsim-opencl.so into a host program built
# without sanitizers (clinfo, python3). A sanitizer build of the library (--config=asan
# or --config=tsan) needs its sanitizer's runtime loaded before anything else, which
# only an instrumented executable does by itself: preload it, and the C++ runtime with
# it (ASan's __cxa_throw interceptor must find libstdc++ when it starts, or the host's
# first C++ exception aborts). Leak checking is off for such hosts: their allocations
# are not the library's.
#   sanitizer_preload LIBRARY    (sets SANITIZER to asan, tsan or nothing)
sanitizer_preload() {
  local runtime cxx
  SANITIZER=""
  runtime="$(ldd "$1" | awk '/lib[at]san\.so/ { print $3; exit }')"
  [ -n "$runtime" ] || return 0
  case "$runtime" in *libasan*) SANITIZER=asan ;; *) SANITIZER=tsan ;; esac
  cxx="$(ldd "$1" | awk '/libstdc\+\+\.so/ { print $3; exit }')"
  export LD_PRELOAD="$runtime${cxx:+:$cxx}${LD_PRELOAD:+:$LD_PRELOAD}"
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
}
