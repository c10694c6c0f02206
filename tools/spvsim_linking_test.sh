#!/usr/bin/env bash
# The spvsim binary loads no libstdc++.so, libgcc_s.so or libfmt.so: they are linked into
# it (//third_party:static_cxx_runtime, //third_party:fmt), and it exports a few dozen
# dynamic symbols, not the thousands of libstdc++'s (--exclude-libs) that the loader
# would hash and look up at every start: together 1.3 ms of hist's 8.1 ms `spvsim run`.
# The static runtime works only as the binary's last dependency; when it is not,
# libstdc++.so is needed again and this test says so. The binary still runs: it prints
# its version and reports a usage error (thrown as an exception and caught, with fmt's
# formatting).
set -euo pipefail

spvsim="$PWD/tools/spvsim"
needed=$(readelf --dynamic "$spvsim" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
if [[ -z "$needed" ]]; then
  echo "FAIL: readelf listed no needed libraries of $spvsim (not a dynamic binary?)"
  exit 1
fi
status=0
for lib in libstdc++ libgcc_s libfmt; do
  if grep -q "^$lib\." <<<"$needed"; then
    echo "FAIL: spvsim needs $lib (keep //third_party:static_cxx_runtime the last of //tools:spvsim's deps)"
    status=1
  fi
done
exported=$(readelf --dyn-syms --wide "$spvsim" | awk 'NR > 3 && $7 != "UND"' | wc -l)
if [[ $exported -gt 200 ]]; then
  echo "FAIL: spvsim exports $exported dynamic symbols (--exclude-libs,ALL in //third_party:static_cxx_runtime)"
  status=1
fi
version=$("$spvsim" --version)
[[ "$version" == spvsim\ * ]] || { echo "FAIL: --version printed '$version'"; status=1; }
if "$spvsim" run --no-such-option >/dev/null 2>"$TEST_TMPDIR/err"; then
  echo "FAIL: an unknown option was accepted"
  status=1
fi
grep -q "no-such-option" "$TEST_TMPDIR/err" || { echo "FAIL: no usage error:"; cat "$TEST_TMPDIR/err"; status=1; }
[[ $status -eq 0 ]] && echo "PASS: spvsim needs only: $(tr '\n' ' ' <<<"$needed")"
exit $status
