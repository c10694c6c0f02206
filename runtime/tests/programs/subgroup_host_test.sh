#!/usr/bin/env bash
# Bazel wrapper for subgroup_host_test.py. The working directory is the runfiles tree.
set -euo pipefail
exec /usr/bin/python3 runtime/tests/programs/subgroup_host_test.py \
  --host "$PWD/runtime/tests/programs/subgroup_host" --spvsim "$PWD/tools/spvsim" \
  --icd "$PWD/runtime/libspvsim-opencl.so" \
  --kernel "$PWD/runtime/tests/programs/subgroup_kernel.cl" "$@"
