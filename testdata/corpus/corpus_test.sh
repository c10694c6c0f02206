#!/usr/bin/env bash
# Bazel wrapper for run_corpus.py: every corpus kernel at -O0, -O1, -O2, -O3 and -O2 -g
# through `spvsim run`, against its Python model and across the levels. The working
# directory is this workspace's runfiles tree. Extra arguments (-k REGEX, --levels) go to
# run_corpus.py.
set -euo pipefail
export HOME="${TEST_TMPDIR:-/tmp}"
exec /usr/bin/python3 testdata/corpus/run_corpus.py --spvsim "$PWD/tools/spvsim" "$@"
