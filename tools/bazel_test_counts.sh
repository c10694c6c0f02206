# Sourced by tools/test.sh and tools/sanitize.sh: counts the test targets of one
# `bazel test` run from its output.
#
#   count_bazel_tests LOG RC   sets `passed` and `failed` (Bazel test targets)
#
# Bazel ends with "Executed 5 out of 12 tests: 4 tests pass, 7 fail to build and 1 fails
# locally." (the per-target lines above it may be cut short: "Skipping other failed to
# build tests"). Counts come from that line, else from the per-target PASSED/FAILED lines.
# A non-zero RC with no failed target counts one failure (a build error before any test
# ran), except 4: everything built but no test target matched.
count_bazel_tests() {
  local log=$1 rc=$2 summary total
  summary=$(grep -E '^Executed [0-9]+ out of [0-9]+ tests?' "$log" | tail -n 1 || true)
  if [[ -n "$summary" ]]; then
    total=$(sed -E 's/^Executed [0-9]+ out of ([0-9]+) tests?.*/\1/' <<<"$summary")
    passed=$(grep -oE '[0-9]+ tests? pass' <<<"$summary" | grep -oE '^[0-9]+' || echo 0)
    failed=$((total - passed))
  else
    passed=$(grep -Ec '^//[^ ]+ +(\(cached\) +)?PASSED( |$)' "$log" || true)
    failed=$(grep -Ec '^//[^ ]+ +(\(cached\) +)?(FAILED|TIMEOUT|NO STATUS|FLAKY|INCOMPLETE|REMOTE FAILURE|FAILED TO BUILD)( |$)' "$log" || true)
  fi
  if [[ $rc -ne 0 && $failed -eq 0 && $rc -ne 4 ]]; then
    echo "bazel test exited with $rc before reporting any test" >&2
    failed=1
  fi
}
