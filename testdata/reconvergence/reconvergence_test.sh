#!/usr/bin/env bash
# Bazel wrapper for run_reconvergence.py (issue 37): random structured kernels with ballots
# in divergent code, under --reconvergence ipdom (the default) and random:SEED, against the
# models of program.py. The working directory is this workspace's runfiles tree; kernel
# sources are kept in $TEST_UNDECLARED_OUTPUTS_DIR. Extra arguments (--programs N,
# --levels O0,O1,..., --random-seeds 1,2,3, -v) go to run_reconvergence.py.
#
# Under --config=asan (.bazelrc sets ASAN_OPTIONS for tests; CI's second pass) every
# `spvsim run` costs ~10x: 200 programs took 160 s there on the 2-core machine. That pass
# looks for memory errors in the executor's reconvergence paths, not for breadth: 40
# programs, random:1 and random:2 at -O0 (about 35 s).
set -euo pipefail
export HOME="${TEST_TMPDIR:-/tmp}"   # the compile cache (~/.cache/spvsim) inside the sandbox
sanitizer=()
[[ -n ${ASAN_OPTIONS:-} ]] && sanitizer=(--programs 40 --random-seeds 1,2)
exec /usr/bin/python3 testdata/reconvergence/run_reconvergence.py --spvsim "$PWD/tools/spvsim" \
  "$@" "${sanitizer[@]}"
