#!/usr/bin/env bash
# spvsim debug: Ctrl-C (SIGINT) stops a `continue` that would run for a long time (the
# `spin` kernel loops while stop[0] == 0) and the session goes on with the next command.
set -euo pipefail

spvsim="$PWD/tools/spvsim"
kernel="$PWD/testdata/debug/faults.cl"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkfifo "$work/in"

"$spvsim" debug "$kernel" --kernel spin --global 4 --local 4 --sub-group-size 4 \
  --arg 'buffer:int[1]' --arg 'buffer:int[4]' <"$work/in" >"$work/out" 2>&1 &
pid=$!
exec 3>"$work/in"

# Waits up to 30 s for PATTERN in the output.
wait_for() {
  for _ in $(seq 300); do
    grep -q -- "$1" "$work/out" && return 0
    sleep 0.1
  done
  echo "FAIL: no '$1' in:" >&2
  cat "$work/out" >&2
  exit 1
}

echo "continue" >&3
wait_for "(spvsim) continue"
sleep 1  # well inside the loop (the instruction budget is 2^30 instructions)
kill -INT "$pid"
wait_for "Interrupted."
echo "print n > 0" >&3
echo "quit" >&3
exec 3>&-
status=0
wait "$pid" || status=$?
out=$(cat "$work/out")
[ "$status" -eq 0 ] || { echo "FAIL: status $status"; echo "$out"; exit 1; }
# Stopped inside the loop (line 12 or 13 of faults.cl), with n counted up in every lane.
grep -q "^work-group (0,0,0) sub-group 0 at faults.cl:1[23] " <<<"$out" ||
  { echo "FAIL: not stopped in the loop"; echo "$out"; exit 1; }
grep -q "^n > 0 (int) = \[0\]=1 \[1\]=1 \[2\]=1 \[3\]=1$" <<<"$out" ||
  { echo "FAIL: n is not positive in every lane"; echo "$out"; exit 1; }
grep -q "Kernel spin \(finished\|stopped\)" <<<"$out" && { echo "FAIL: the kernel ran to its end"; echo "$out"; exit 1; }
echo "PASS"
