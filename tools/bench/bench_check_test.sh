#!/usr/bin/env bash
# Bazel wrapper for `run.py --check-dump --small` (see BUILD). The working directory is
# this workspace's runfiles tree. Needs /usr/bin/python3 with numpy.
set -euo pipefail
export HOME="${TEST_TMPDIR:-/tmp}"
exec /usr/bin/python3 tools/bench/run.py --check-dump --small --threads 4 \
  --spvsim "$PWD/tools/spvsim" "$@"
