#!/usr/bin/env bash
# spvsim check's shards run through GNU parallel on this machine (README "Sharded sweeps"),
# merged: the merge prints what the unsharded run prints, and its JUnit XML is what
# check_junit_test.py expects. Skips (passing) when GNU parallel is not installed.
set -euo pipefail
if ! command -v parallel >/dev/null 2>&1; then
  echo "SKIPPED: GNU parallel is not installed (Debian package 'parallel', in tools/setup-debian.sh)"
  exit 0
fi
export HOME="${TEST_TMPDIR:-/tmp}" XDG_CACHE_HOME="${TEST_TMPDIR:-/tmp}/cache"
spvsim="$PWD/tools/spvsim"
junit_check="$PWD/tools/cli/check_junit_test.py"
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/shards.XXXXXX")"
cd "$work"

# Each work-item writes its sub-group size: 8 everywhere at size 8, which the reference
# expects, so the 8 runs at sizes 16 and 32 are expect-mismatch errors (the -O0 build's 3
# runs are not judged): 15 configurations, 4, 4, 4 and 3 in the 4 shards.
echo 'kernel void sizes(global uint* out) { out[get_global_id(0)] = get_sub_group_size(); }' > k.cl
{ printf 'arg0 uint[32] ='; for _ in $(seq 32); do printf ' 8'; done; echo; } > k.ref
args=(k.cl --kernel sizes --global 32 --local 32 --arg 'buffer:uint[32]=zero' --dump --expect k.ref)

status=0
"$spvsim" check "${args[@]}" --junit whole.xml > whole.out 2> whole.err || status=$?
[[ $status -eq 2 ]] || { echo "unsharded run: exit status $status, expected 2"; cat whole.err; exit 1; }
"$spvsim" check "${args[@]}" --list > list.txt

# Shards exit 2 like the whole run, so parallel counts failed jobs: check the files instead.
parallel --will-cite -j 4 "$spvsim" check "${args[@]}" --shard {}/4 --results r{}.jsonl \
  '>' /dev/null '2>' shard{}.err ::: 0 1 2 3 || true
for i in 0 1 2 3; do
  want=$(( i < 3 ? 4 : 3 ))
  [[ $(wc -l < "r$i.jsonl") -eq $want ]] || { echo "shard $i: $(cat "shard$i.err")"; exit 1; }
done

merged=0
"$spvsim" check --merge r0.jsonl r1.jsonl r2.jsonl r3.jsonl --junit merged.xml \
  > merged.out 2> merged.err || merged=$?
[[ $merged -eq $status ]] || { echo "merge: exit status $merged, expected $status"; exit 1; }
diff whole.out merged.out
diff whole.err merged.err
cmp whole.xml merged.xml
/usr/bin/python3 "$junit_check" merged.xml list.txt
echo "PASSED: 4 shards through GNU parallel, merged as the unsharded run"
