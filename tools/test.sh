#!/usr/bin/env bash
# Installs what is missing (tools/setup-debian.sh), runs the suite, and ends with one
# plain line "N passed, M failed" (Bazel test targets, both passes together). Exits
# non-zero when anything failed or did not build.
#
#   tools/test.sh            the suite of CI (.ci/run): tests tagged "slow" left out
#   tools/test.sh --slow     only the tests tagged "slow" (every corpus level, every
#                            kernel's argument info through the ICD, ...): a separate,
#                            longer suite
#   tools/test.sh --all      both, in one run
#   tools/test.sh TARGET...  those targets in the ordinary build only (no sanitizer pass
#                            unless SPVSIM_SANITIZE=1), e.g. //src/exec/...
#
# Two passes, each printing how long it took. The ordinary build (-O2, what ships) runs
# every test. Then the sanitizer pass (`tools/sanitize.sh asan --ci`: gcc ASan+UBSan,
# -fno-sanitize-recover, in an output directory of its own) runs the tests of the code
# that parses outside input: the SPIR-V loader, bundles, .sim text, files and literals,
# which build without the executor. The whole suite under ASan+UBSan compiles the
# library a second time: about 25 minutes of a cold 2-core machine on its own, which
# CI's budget does not hold; run it apart with `tools/sanitize.sh asan` (and the fuzzers,
# tools/fuzz.sh). SPVSIM_SANITIZE=0 leaves the sanitizer pass out; `bazel test //...`
# is the ordinary pass without the setup.
set -uo pipefail
cd "$(dirname "$0")/.."
source tools/bazel_test_counts.sh

# Which tests by their "slow" tag; handed to tools/sanitize.sh as the same option.
tag_filter=--test_tag_filters=-slow
case ${1:-} in
  --slow) tag_filter=--test_tag_filters=slow; shift ;;
  --all) tag_filter=; shift ;;
  -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac

tools/setup-debian.sh || { echo "tools/test.sh: setup failed" >&2; echo "0 passed, 1 failed"; exit 1; }
# What setup installed for the tests (Chromium, the npm DAP client) must be there: the
# tests that use it fail instead of skipping (.bazelrc passes this on to them).
export SPVSIM_REQUIRE_TEST_TOOLS=1

targets=("$@")
sanitize=${SPVSIM_SANITIZE:-}
[[ -z $sanitize ]] && { [[ ${#targets[@]} -eq 0 ]] && sanitize=1 || sanitize=0; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The ordinary pass: the given targets, else every test. --build_tests_only: only the
# tests (and what they need) are built. --keep_going: one target that fails to build must
# not hide the results of the others.
ordinary=("${targets[@]}")
[[ ${#ordinary[@]} -eq 0 ]] && ordinary=(//...)
start=$SECONDS
echo "== tools/test.sh: ordinary build: bazel test ${ordinary[*]}"
bazel test --test_output=errors --keep_going --build_tests_only --color=no --curses=no \
  ${tag_filter:+"$tag_filter"} -- "${ordinary[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
count_bazel_tests "$log" "$rc"
[[ $rc -eq 4 ]] && rc=0  # none of them matched the tag filter
echo "== tools/test.sh: ordinary pass took $((SECONDS - start)) s: $passed passed, $failed failed"

if [[ $sanitize != 0 ]]; then
  tools/sanitize.sh asan --ci ${tag_filter:+"$tag_filter"} "${targets[@]}" 2>&1 | tee "$log"
  san_rc=${PIPESTATUS[0]}
  counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  san_passed=$(grep -oE '^[0-9]+' <<<"$counts" || echo 0)
  san_failed=$(grep -oE '[0-9]+ failed' <<<"$counts" | grep -oE '^[0-9]+' || echo 1)
  [[ $san_rc -ne 0 && $san_failed -eq 0 ]] && san_failed=1
  passed=$((passed + ${san_passed:-0}))
  failed=$((failed + ${san_failed:-1}))
  [[ $san_rc -ne 0 ]] && rc=$san_rc
fi
echo "$passed passed, $failed failed"
[[ $rc -eq 0 && $failed -eq 0 ]]
