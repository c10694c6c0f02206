#!/bin/bash
# `clinfo` through the real loader on libspvsim-opencl.so: exits 0, shows the spvsim
# platform and device, and reports no query error anywhere (clinfo prints failed
# queries as "<error: ...>" or with the CL_INVALID_* / CL_OUT_OF_* name).
set -u
lib="$(realpath "${TEST_SRCDIR}/${TEST_WORKSPACE}/runtime/libspvsim-opencl.so")"
command -v clinfo >/dev/null || { echo "clinfo is not installed (apt-get install clinfo)"; exit 1; }
source "${TEST_SRCDIR}/${TEST_WORKSPACE}/runtime/tests/sanitizer_preload.sh"
sanitizer_preload "$lib"
if [ "$SANITIZER" = tsan ]; then
  # clinfo's default mode faults in ThreadSanitizer's __tls_get_addr interceptor when
  # libtsan is preloaded, with or without any ICD: nothing to learn about spvsim here.
  echo "SKIP: clinfo cannot host a ThreadSanitizer build (--config=tsan) of the ICD"
  exit 0
elif [ "$SANITIZER" = asan ]; then
  # clinfo 3.0.23.01.25's own sprintf overflows its buffer by one byte at startup: not ours.
  echo "interceptor_via_lib:clinfo" >"${TEST_TMPDIR}/clinfo.supp"
  export ASAN_OPTIONS="$ASAN_OPTIONS:suppressions=${TEST_TMPDIR}/clinfo.supp"
fi
status=0
for mode in "" "--raw" "--list"; do
  out="$(OCL_ICD_VENDORS="$lib" clinfo $mode 2>&1)"
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL: clinfo $mode exited $rc"; echo "$out"; status=1; continue
  fi
  if ! grep -q "spvsim" <<<"$out"; then
    echo "FAIL: clinfo $mode does not show the spvsim platform"; echo "$out"; status=1
  fi
  if grep -nE "<error|CL_INVALID_|CL_OUT_OF_|Invalid |error:" <<<"$out"; then
    echo "FAIL: clinfo $mode reports errors (lines above)"; status=1
  fi
done
out="$(OCL_ICD_VENDORS="$lib" clinfo 2>&1)"
for want in "Platform Name" "Device Name" "Device Version" "OpenCL 3.0" "cl_khr_subgroups" \
            "IL version" "SPIR-V_1.0" "Max sub-groups per work group" "Sub-group sizes (Intel)"; do
  grep -q "$want" <<<"$out" || { echo "FAIL: clinfo output lacks '$want'"; status=1; }
done
[ $status -eq 0 ] && echo "clinfo: platform and device printed without errors"
exit $status
