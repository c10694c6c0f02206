#!/usr/bin/env bash
# Bazel wrapper for run_checks.py: every checker regression case (testdata/checks/) at its
# optimisation levels, its diagnostics counted against its .expect file. Extra arguments
# (-k REGEX, -v) go to run_checks.py.
set -euo pipefail
export HOME="${TEST_TMPDIR:-/tmp}"
exec /usr/bin/python3 testdata/checks/run_checks.py --spvsim "$PWD/tools/spvsim" "$@"
