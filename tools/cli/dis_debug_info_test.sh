#!/usr/bin/env bash
# spvsim dis / info on an image kernel built with -g (-O0 and -O2): llvm-spirv-15 writes the
# image pointers' debug types with Storage Class ~0, which SPIRV-Tools refuses to print;
# spvsim still prints the whole module (exit 0), that instruction from its words, and info
# still lists the capabilities (SPIR-V: image types in a kernel need ImageBasic).
set -euo pipefail

spvsim="$PWD/tools/spvsim"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/copy.cl" <<'CL'
kernel void copy(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, p, read_imagef(src, s, p));
}
CL

fail() { echo "FAIL ($level): $*" >&2; exit 1; }
for level in -O0 -O2; do
  "$spvsim" dis "$work/copy.cl" --no-cache --build-options "-g $level" >"$work/dis" 2>"$work/err" ||
    fail "exit $?: $(cat "$work/err")"
  grep -q 'OpEntryPoint Kernel .* "copy"' "$work/dis" || fail "no entry point in: $(head "$work/dis")"
  grep -q 'OpImageWrite' "$work/dis" || fail "no OpImageWrite"
  grep -Eq 'OpImageWrite .*; .*copy\.cl:3$' "$work/dis" || fail "OpImageWrite without its line 3"
  grep -Eq 'DebugTypePointer %[0-9]+ 4294967295 0  ; SPIRV-Tools cannot print this instruction' \
    "$work/dis" || fail "no DebugTypePointer written from its words"
  "$spvsim" info "$work/copy.cl" --no-cache --build-options "-g $level" >"$work/info" ||
    fail "info exit $?"
  grep -Eq '^capabilities: .*ImageBasic' "$work/info" || fail "info: $(head -3 "$work/info")"
done
echo PASS
