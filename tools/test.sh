#!/usr/bin/env bash
# Installs what is missing (tools/setup-debian.sh), runs every Bazel test but the slow
# ones, then the sanitizer pass, and ends with one plain line "N passed, M failed" (Bazel
# test targets, both passes together). Exits non-zero when anything failed or did not
# build. Extra arguments go to `bazel test` (e.g. a target pattern); the sanitizer pass
# then runs only with SPVSIM_SANITIZE=1.
#
#   tools/test.sh            the suite of CI (.ci/run): tests tagged "slow" left out
#   tools/test.sh --slow     only the tests tagged "slow" (every corpus level, every
#                            kernel's argument info through the ICD, ...), then those of
#                            them that run under ASan: a separate, longer suite
#   tools/test.sh --all      both, in one run
#
# Sanitizer pass (SPVSIM_SANITIZE=0 skips it): `tools/sanitize.sh asan --ci`, i.e. the
# suite again under --config=asan (gcc ASan+UBSan, -fno-sanitize-recover), less the tests
# too slow for CI (tools/sanitize.sh says which and why), in the same output base (its
# outputs have a directory of their own, so the ordinary build stays cached).
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
[[ ${#targets[@]} -eq 0 ]] && targets=(//...)

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# --keep_going: one target that fails to build must not hide the results of the others.
bazel test --test_output=errors --keep_going --color=no --curses=no ${tag_filter:+"$tag_filter"} \
  -- "${targets[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}

count_bazel_tests "$log" "$rc"
[[ $rc -eq 4 ]] && { echo "tools/test.sh: bazel found no test targets" >&2; rc=0; }

sanitize=${SPVSIM_SANITIZE:-}
[[ -z $sanitize ]] && { [[ $# -eq 0 ]] && sanitize=1 || sanitize=0; }
if [[ $sanitize != 0 ]]; then
  echo "$passed passed, $failed failed (ordinary build)"
  tools/sanitize.sh asan --ci ${tag_filter:+"$tag_filter"} "$@" 2>&1 | tee "$log"
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
