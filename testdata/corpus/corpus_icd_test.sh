#!/usr/bin/env bash
# Bazel wrapper for run_pyopencl.py: the corpus kernels marked `icd` through the spvsim ICD
# (ocl-icd loader, PyOpenCL from Debian's python3), built by clBuildProgram at -O0 and -O2.
# The working directory is this workspace's runfiles tree.
set -euo pipefail
export HOME="${TEST_TMPDIR:-/tmp}"
exec /usr/bin/python3 testdata/corpus/run_pyopencl.py \
  --icd "$PWD/runtime/libspvsim-opencl.so" "$@"
