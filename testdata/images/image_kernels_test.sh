#!/usr/bin/env bash
# Bazel wrapper for image_kernels_test.py: Debian's python3 (with python3-pyopencl), only
# the spvsim ICD visible to the loader, and the spvsim binary for the CLI half.
set -euo pipefail
export OCL_ICD_VENDORS="$PWD/runtime/libspvsim-opencl.so"
source runtime/tests/sanitizer_preload.sh
sanitizer_preload "$OCL_ICD_VENDORS"
export HOME="${TEST_TMPDIR:-/tmp}" XDG_CACHE_HOME="${TEST_TMPDIR:-/tmp}/cache"
exec /usr/bin/python3 testdata/images/image_kernels_test.py "$PWD/tools/spvsim" "$@"
