#!/usr/bin/env bash
# Bazel wrapper for forward_progress_icd_test.py: Debian's python3 (with python3-pyopencl) and only
# the spvsim ICD visible to the loader. The working directory is the runfiles tree.
set -euo pipefail
export OCL_ICD_VENDORS="$PWD/runtime/libspvsim-opencl.so"
source runtime/tests/sanitizer_preload.sh
sanitizer_preload "$OCL_ICD_VENDORS"
export HOME="${TEST_TMPDIR:-/tmp}" XDG_CACHE_HOME="${TEST_TMPDIR:-/tmp}/cache"
exec /usr/bin/python3 runtime/tests/programs/forward_progress_icd_test.py "$@"
