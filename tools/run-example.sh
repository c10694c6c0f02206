#!/usr/bin/env bash
# Installs what is missing, builds spvsim and runs a real kernel end to end:
# testdata/saxpy.cl (y = a*x + y), compiled from OpenCL C to SPIR-V and simulated.
set -euo pipefail
cd "$(dirname "$0")/.."

tools/setup-debian.sh
bazel build //tools:spvsim

cmd=(bazel-bin/tools/spvsim run testdata/saxpy.cl --kernel saxpy
     --global 16 --local 8 --sub-group-size 8
     --arg float:2.5 --arg 'buffer:float[16]=range(0,1)' --arg 'buffer:float[16]=fill(10)'
     --dump)
echo "+ ${cmd[*]}"
"${cmd[@]}"
echo "(expected: arg2 y[i] = 2.5*i + 10, i.e. 10 12.5 15 ... 47.5)"
