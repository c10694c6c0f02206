#!/usr/bin/env bash
# The layer over the machine's default driver (PoCL on the development machine and in CI):
# the C host's scenarios and a PyOpenCL application, each run without the layer and with
# it (OPENCL_LAYERS). The application's output must be the same (the layer never changes
# the device's results); the layer's diagnostics (SPVSIM_DIAGNOSTICS) must report the
# misuse of each scenario, and nothing for correct kernels. A capture through the layer
# must replay on the command line and `check` clean.
set -uo pipefail
cd "${TEST_SRCDIR:-$PWD/..}/${TEST_WORKSPACE:-spvsim}"
root=$PWD
layer=$root/runtime/layer/libspvsim-layer.so
host=$root/runtime/tests/layer/layer_host
spvsim=$root/tools/spvsim
tmp=${TEST_TMPDIR:-$(mktemp -d)}
export HOME=$tmp XDG_CACHE_HOME=$tmp/cache SPVSIM_CACHE_DIR=$tmp/cache/spvsim
# PyOpenCL's binary cache would hand the run under the layer the binaries of the run
# without it, which the layer did not see built (README.md, "OpenCL layer"); its own
# runs with the cache are checked last.
export PYOPENCL_NO_CACHE=1
status=0

fail() {
  echo "FAIL: $*"
  status=1
}

if ! clinfo -l 2>/dev/null | grep -q "Platform"; then
  echo "SKIP: no OpenCL driver on this machine for the layer to watch"
  exit 0
fi

# run NAME COMMAND...: the command without and with the layer; outputs in $tmp/NAME.{0,1},
# the layer's diagnostics in $tmp/NAME.diag.
run() {
  local name=$1
  shift
  timeout 120 "$@" >"$tmp/$name.0" 2>"$tmp/$name.err0" || fail "$name failed: $(tail -n 5 "$tmp/$name.err0")"
  OPENCL_LAYERS=$layer SPVSIM_DIAGNOSTICS=$tmp/$name.diag timeout 120 "$@" >"$tmp/$name.1" \
    2>"$tmp/$name.err1" || fail "$name failed under the layer: $(tail -n 5 "$tmp/$name.err1")"
  touch "$tmp/$name.diag"
  if ! cmp -s "$tmp/$name.0" "$tmp/$name.1"; then
    fail "$name: the application's output changed under the layer"
    diff "$tmp/$name.0" "$tmp/$name.1" | head -n 10
  fi
}

expect() {  # expect NAME PATTERN: the layer's diagnostics hold PATTERN
  grep -qE "$2" "$tmp/$1.diag" || { fail "$1: no '$2' in the layer's diagnostics:"; cat "$tmp/$1.diag"; }
}

refuse() {  # refuse NAME PATTERN: they do not
  if grep -qE "$2" "$tmp/$1.diag"; then
    fail "$1: unexpected '$2' in the layer's diagnostics:"
    cat "$tmp/$1.diag"
  fi
}

for scenario in correct subbuffer; do
  run "$scenario" "$host" "$scenario"
  grep -q "^status OK" "$tmp/$scenario.1" || fail "$scenario: $(tail -n 1 "$tmp/$scenario.1")"
  expect "$scenario" "spvsim layer: 1 launches shadowed, 0 skipped, 0 with device mismatches"
  refuse "$scenario" "error|warning"
done

# A launch gated by a user event the application sets after enqueueing it: the layer must
# not block the application (it would wait for itself); the next launch is shadowed.
run userevent "$host" userevent
grep -q "^status OK" "$tmp/userevent.1" || fail "userevent: $(tail -n 1 "$tmp/userevent.1")"
expect userevent "not shadowing kernel 'correct': a user event of its context is not set yet"
expect userevent "spvsim layer: 1 launches shadowed, 1 skipped"

# An out-of-bounds read: reported with its place; the application keeps the device's values.
run oob "$host" oob
expect oob "error: out-of-bounds: read of 4 bytes at byte offset 256 of argument 0 \(x\).*kernel oob"
expect oob "spvsim layer: 1 launches shadowed, 0 skipped"

# A kernel reading a CL_MEM_WRITE_ONLY buffer: the access flags travel to spvsim's copy.
run wo "$host" wo
expect wo "error: access-violation: read of 4 bytes from a write-only buffer"
refuse wo "device-mismatch"

# Sub-group sizes: where the device has sub-groups, a partial sub-group's size is the
# number of its work-items (a device that says otherwise is a device-mismatch).
run partial "$host" partial
if grep -q "^status OK" "$tmp/partial.1"; then
  refuse partial "device-mismatch"
elif grep -q "^status WRONG" "$tmp/partial.1"; then
  expect partial "error: device-mismatch: kernel 'partial'"
fi

# PyOpenCL: kernels from source, a float kernel calling exp (a difference the device may
# show must be one the spec's 3 ulp allow), images with a sampler, a kernel from IL,
# sub-buffers; then the same app with SPVSIM_SHADOW_FILTER and SPVSIM_SHADOW_LIMIT, and
# captured through the layer.
run pyopencl /usr/bin/python3 "$root/runtime/tests/layer/layer_app.py" "$tmp/app.spv" "$spvsim"
refuse pyopencl "^error"
if grep -q "device-mismatch" "$tmp/pyopencl.diag"; then
  expect pyopencl "warning: device-mismatch: kernel 'expo'.*within the 3 ulp the built-ins it calls allow"
fi
launches=$(sed -n 's/^launches //p' "$tmp/pyopencl.1")
expect pyopencl "spvsim layer: ${launches:-?} launches shadowed, 0 skipped"
refuse pyopencl "not shadowing"

# Only the kernels the filter names are shadowed (the others pass through, uncounted);
# past the limit, launches pass through and the summary says why.
run filtered env SPVSIM_SHADOW_FILTER='tri*' /usr/bin/python3 \
  "$root/runtime/tests/layer/layer_app.py" "$tmp/app.spv" "$spvsim"
expect filtered "spvsim layer: 2 launches shadowed, 0 skipped"
run limited env SPVSIM_SHADOW_LIMIT=3 /usr/bin/python3 \
  "$root/runtime/tests/layer/layer_app.py" "$tmp/app.spv" "$spvsim"
expect limited "spvsim layer: 3 launches shadowed, $((${launches:-3} - 3)) skipped"
expect limited "SPVSIM_SHADOW_LIMIT \(3\) launches were shadowed"

# Capture through the layer: the device's before and after contents, replayable.
rm -rf "$tmp/capture"
OPENCL_LAYERS=$layer SPVSIM_CAPTURE=$tmp/capture SPVSIM_CAPTURE_FILTER=triad \
  SPVSIM_DIAGNOSTICS=none timeout 120 /usr/bin/python3 "$root/runtime/tests/layer/layer_app.py" \
  "$tmp/app.spv" "$spvsim" >"$tmp/capture.out" 2>&1 || fail "the captured app failed: $(cat "$tmp/capture.out")"
bundle=$(ls -d "$tmp"/capture/*-triad 2>/dev/null | head -n 1)
if [[ -z $bundle ]]; then
  fail "no bundle of triad in $tmp/capture: $(ls "$tmp/capture" 2>&1)"
else
  # Exit status 0: no errors, and every buffer as the device left it.
  "$spvsim" check "$bundle" >"$tmp/check.out" 2>&1 ||
    fail "check of the device's bundle: $(cat "$tmp/check.out")"
fi

# With PyOpenCL's binary cache: the first run under the layer builds from source (and the
# layer remembers where each binary came from), the second gets the cached binaries and
# must still be shadowed in full.
for run in first second; do
  env -u PYOPENCL_NO_CACHE OPENCL_LAYERS=$layer SPVSIM_DIAGNOSTICS=$tmp/cached.$run.diag timeout 120 \
    /usr/bin/python3 "$root/runtime/tests/layer/layer_app.py" "$tmp/app.spv" "$spvsim" \
    >"$tmp/cached.$run" 2>&1 || fail "the app with PyOpenCL's cache failed: $(tail -n 5 "$tmp/cached.$run")"
done
ls "$tmp"/cache/pyopencl* >/dev/null 2>&1 || fail "PyOpenCL kept no binary cache in $tmp/cache"
expect cached.second "spvsim layer: ${launches:-?} launches shadowed, 0 skipped"
refuse cached.second "device binary"

[[ $status -eq 0 ]] && echo "PASS: the layer over $(clinfo -l | sed -n 's/^Platform #0: //p')"
exit $status
