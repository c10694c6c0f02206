#!/usr/bin/env bash
# Bazel wrapper for capture_test.py: Debian's python3 (with python3-pyopencl), only the
# spvsim ICD visible to the loader, and the spvsim binary that replays the bundles.
set -euo pipefail
export OCL_ICD_VENDORS="$PWD/runtime/libspvsim-opencl.so"
export SPVSIM_BIN="$PWD/tools/spvsim"
source runtime/tests/sanitizer_preload.sh
sanitizer_preload "$OCL_ICD_VENDORS"
export HOME="${TEST_TMPDIR:-/tmp}" XDG_CACHE_HOME="${TEST_TMPDIR:-/tmp}/cache"
exec /usr/bin/python3 runtime/tests/programs/capture_test.py "$@"
