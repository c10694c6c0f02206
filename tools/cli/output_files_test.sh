#!/usr/bin/env bash
# Bazel wrapper for output_files_test.py: Debian's python3, a compile cache in the test's tmpdir.
set -euo pipefail
export HOME="${TEST_TMPDIR:-/tmp}" XDG_CACHE_HOME="${TEST_TMPDIR:-/tmp}/cache"
exec /usr/bin/python3 tools/cli/output_files_test.py "$@"
