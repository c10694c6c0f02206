#!/usr/bin/env bash
# Replays tools/fuzz/seeds/TARGET through each fuzz target (standalone driver, or libFuzzer's
# replay mode under --config=fuzz), plus testdata/saxpy.spv for the module targets
# (behind the 4-byte launch header for fuzz_launch). Fails on any crash or sanitizer
# report.
set -euo pipefail
cd "${TEST_SRCDIR:-$PWD/..}/${TEST_WORKSPACE:-spvsim}"
root=$PWD
tmp="${TEST_TMPDIR:-$(mktemp -d)}"

mkdir -p "$tmp/loader" "$tmp/launch"
printf abcd >"$tmp/four"  # for file(four) in seeds/fuzz_arg_spec
cp testdata/saxpy.spv "$tmp/loader/"
{ printf '\0\0\0\0'; cat testdata/saxpy.spv; } >"$tmp/launch/saxpy"
{ printf '\0\x4a\x07\x03'; cat testdata/saxpy.spv; } >"$tmp/launch/saxpy_sg8_checks"

status=0
# (fuzz_dap_session is left out: tools/fuzz/BUILD says why.)
for target in fuzz_loader fuzz_sim_file fuzz_bundle fuzz_arg_spec fuzz_command_line fuzz_dap \
  fuzz_launch; do
  inputs=()
  [[ -d tools/fuzz/seeds/$target ]] && inputs+=("$root/tools/fuzz/seeds/$target")
  case $target in
    fuzz_loader) inputs+=("$tmp/loader") ;;
    fuzz_launch) inputs+=("$tmp/launch") ;;
  esac
  # Relative file(PATH) names of fuzz_arg_spec resolve in the temporary directory.
  if (cd "$tmp" && "$root/tools/fuzz/$target" "${inputs[@]}" >"$tmp/$target.log" 2>&1); then
    echo "PASS $target: $(tail -n 1 "$tmp/$target.log")"
  else
    echo "FAIL $target:"
    cat "$tmp/$target.log"
    status=1
  fi
done
exit $status
