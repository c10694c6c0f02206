#!/usr/bin/env bash
# Bazel wrapper for run_e2e.py: the working directory is this workspace's runfiles tree.
# Extra arguments (e.g. -k REGEX, -v) go to run_e2e.py.
set -euo pipefail
exec /usr/bin/python3 testdata/run_e2e.py --spvsim "$PWD/tools/spvsim" "$@"
