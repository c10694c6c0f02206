#!/usr/bin/env bash
# Runs the test suite under a sanitizer config of .bazelrc and ends with one plain line
# "N passed, M failed" (Bazel test targets). Exits non-zero when anything failed.
#
#   tools/sanitize.sh [asan|ubsan|tsan] [--ci] [--output_base DIR]
#                     [--test_tag_filters=TAGS] [TARGET...]
#   tools/sanitize.sh [asan|ubsan|tsan] --list-left-out
#
# asan (default): gcc ASan+UBSan, -fno-sanitize-recover, _GLIBCXX_ASSERTIONS; ubsan:
# UBSan alone; tsan: ThreadSanitizer. TARGETs default to //...; the tests that cannot run
# under the config (below, with the reason) are always left out. --ci is CI's sanitizer
# pass (tools/test.sh runs `tools/sanitize.sh asan --ci` after the ordinary build has run
# every test): without TARGETs, only the packages that parse outside input (the SPIR-V
# loader, bundles, .sim text, files, literals; the list below), and only what their tests
# need is built (--build_tests_only). The whole suite under ASan+UBSan is this command
# without --ci: about 25 minutes of a cold 2-core machine, so run it apart (before
# landing a change to the executor, the runtime or the debugger). --test_tag_filters goes
# to every `bazel test` (tools/test.sh passes its choice of "slow" tests). --output_base DIR
# builds in an output base of its own (e.g. to keep a sanitizer build beside a shared
# Bazel server's ordinary one; a fresh one is a cold build). --list-left-out prints the
# tests the config always leaves out, one label a line, and runs nothing.
#
# Under asan, tests whose host is an uninstrumented program that loads the ASan-built ICD
# (python with PyOpenCL) run in a second `bazel test` with the ASan runtime preloaded.
set -uo pipefail
cd "$(dirname "$0")/.."
source tools/bazel_test_counts.sh

config=asan
ci=0
list_only=0
startup=()
filters=()
targets=()
while [[ $# -gt 0 ]]; do
  case $1 in
    asan|ubsan|tsan) config=$1; shift ;;
    --ci) ci=1; shift ;;
    --output_base) startup=(--output_base="$2"); shift 2 ;;
    --output_base=*) startup=(--output_base="${1#*=}"); shift ;;
    --test_tag_filters=*) filters+=("$1"); shift ;;
    --list-left-out) list_only=1; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
targets_given=${#targets[@]}
[[ $targets_given -eq 0 ]] && targets=(//...)
# In an output base of its own, Bazel does not know the workspace's bazel-* links into
# the other output base and would load their packages as ours: spell //... as the
# workspace's own top-level folders.
if [[ ${#startup[@]} -gt 0 ]]; then
  expanded=()
  for t in "${targets[@]}"; do
    if [[ $t != //... ]]; then expanded+=("$t"); continue; fi
    for d in */; do
      d=${d%/}
      [[ -L $d || $d == bazel-* ]] && continue
      [[ -n $(find "$d" -name BUILD -print -quit) ]] && expanded+=("//$d/...")
    done
  done
  targets=("${expanded[@]}")
fi

# Tests that cannot run under the config, and why.
skip=()
preloaded=()
case $config in
  asan)
    skip+=(
      # clinfo 3.0 itself writes past a heap buffer in --raw (with PoCL alone too), so an
      # ASan runtime preloaded into it reports clinfo's bug, not ours; the ICD's C++ tests
      # (runtime/tests/core) load it in-process under ASan instead.
      //runtime/tests/core:clinfo_test
    )
    # Python loads the ASan-built ICD: libasan must be first in the process, and
    # libstdc++ loaded before it so that ASan's __cxa_throw interceptor finds the real one;
    # Python's own allocations are not ours to leak-check.
    preloaded+=(
      //runtime/tests/layer:layer_test
      //runtime/tests/programs:pyopencl_test
      //testdata:arg_errors_test
      //testdata:arg_info_test
      //testdata:corpus_icd_test
    )
    ;;
  ubsan)
    # The UBSan runtime loads into an uninstrumented host without preloading.
    ;;
  tsan)
    skip+=(
      # Uninstrumented hosts (clinfo, python) cannot load a TSan-built ICD (its libtsan
      # comes too late: no platform is found), and preloading libtsan with --test_env
      # crashes Bazel's own test wrapper scripts.
      //runtime/tests/core:clinfo_test
      //runtime/tests/layer:layer_test
      //runtime/tests/programs:pyopencl_test
      //testdata:arg_errors_test
      //testdata:arg_info_test
      //testdata:corpus_icd_test
    )
    ;;
esac
if [[ $ci -eq 1 ]]; then
  # CI (tools/test.sh) runs every test in the ordinary build first, then this pass over
  # the code that reads what comes from outside the process (SPIR-V binaries and text,
  # capture bundles and their manifests, .sim files, literals, input files). Those
  # packages do not depend on the executor, so the sanitized build is a fraction of the
  # whole one: the whole suite under ASan+UBSan (`tools/sanitize.sh asan`) compiles the
  # library a second time and took 25 minutes of a 2-core machine on its own, past CI's
  # budget. Given targets replace these.
  if [[ $targets_given -eq 0 ]]; then
    targets=(//spirv/... //src/formats/... //src/files/... //src/values/...)
  fi
  filters+=(--build_tests_only)
fi

if [[ $list_only -eq 1 ]]; then
  printf '%s\n' "${skip[@]}"
  exit 0
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
total_passed=0
total_failed=0
status=0

# bazel test ARGS... with the counting of tools/test.sh: adds to total_passed/total_failed.
run_tests() {
  bazel "${startup[@]}" test --config="$config" --test_output=errors --keep_going \
    --color=no --curses=no "${filters[@]}" "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]} passed failed
  count_bazel_tests "$log" "$rc"
  [[ $rc -eq 4 ]] && rc=0  # no test targets matched
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  [[ $rc -ne 0 ]] && status=$rc
}

start=$SECONDS
echo "== tools/sanitize.sh: bazel test --config=$config ${targets[*]}"
excluded=()
for t in "${skip[@]}" "${preloaded[@]}"; do excluded+=("-$t"); done
[[ ${#excluded[@]} -gt 0 ]] && echo "   leaving out: ${skip[*]} ${preloaded[*]}"
run_tests -- "${targets[@]}" "${excluded[@]}"

# The preloaded ones, when the targets asked for them.
if [[ ${#preloaded[@]} -gt 0 ]]; then
  wanted=()
  for t in "${preloaded[@]}"; do
    [[ " ${skip[*]} " == *" $t "* ]] && continue  # the config leaves it out
    for pattern in "${targets[@]}"; do
      base=${pattern%/...}
      if [[ $pattern == "$t" || $pattern == //... ||
            ($pattern == */... && ($t == "$base":* || $t == "$base"/*)) ]]; then
        wanted+=("$t")
        break
      fi
    done
  done
  if [[ ${#wanted[@]} -gt 0 ]]; then
    echo "== tools/sanitize.sh: ${wanted[*]} with the ASan runtime preloaded"
    run_tests \
      --test_env=LD_PRELOAD="$(gcc -print-file-name=libasan.so):$(g++ -print-file-name=libstdc++.so.6)" \
      --test_env=ASAN_OPTIONS=detect_leaks=0:external_symbolizer_path=/usr/bin/llvm-symbolizer-15 \
      -- "${wanted[@]}"
  fi
fi

echo "== tools/sanitize.sh: $config pass took $((SECONDS - start)) s"
echo "$total_passed passed, $total_failed failed"
[[ $status -eq 0 && $total_failed -eq 0 ]]
