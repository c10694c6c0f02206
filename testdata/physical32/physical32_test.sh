#!/usr/bin/env bash
# Bazel wrapper for run_physical32.py (extra arguments, e.g. -k REGEX or -v, go to it).
set -euo pipefail
export HOME="${TEST_TMPDIR:-/tmp}"
exec /usr/bin/python3 testdata/physical32/run_physical32.py --spvsim "$PWD/tools/spvsim" "$@"
