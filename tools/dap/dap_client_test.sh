#!/usr/bin/env bash
# //tools/dap:dap_client_test: spvsim dap driven by VS Code's DAP client (dap_client_test.js,
# run by Debian's node). The npm package comes from tools/setup-debian.sh, which installs
# tools/dap/client/package-lock.json into ~/.cache/spvsim/npm/HASH (HASH: the lock file's
# sha256, 16 digits; ~ from the password database, since Bazel sets HOME to the test's
# tmpdir; SPVSIM_NPM_DIR replaces ~/.cache/spvsim/npm). Where node or the package is
# missing, the test fails under SPVSIM_REQUIRE_TEST_TOOLS=1 (tools/test.sh, CI's command,
# sets it after the setup) and otherwise passes saying it skipped.
set -euo pipefail
root=$PWD
lock=tools/dap/client/package-lock.json
home=$(getent passwd "$(id -u)" | cut -d: -f6 || true)
npm_dir=${SPVSIM_NPM_DIR:-${home:-/nonexistent}/.cache/spvsim/npm}/$(sha256sum "$lock" | cut -c1-16)

missing() {
  if [[ ${SPVSIM_REQUIRE_TEST_TOOLS:-} == 1 ]]; then
    echo "dap_client_test: FAIL: $1; tools/setup-debian.sh installs it, and" \
      "SPVSIM_REQUIRE_TEST_TOOLS=1 (tools/test.sh) requires it" >&2
    exit 1
  fi
  echo "dap_client_test: SKIPPED: $1 (tools/setup-debian.sh installs it)"
  exit 0
}
node=$(command -v node || command -v nodejs || true)
[[ -n $node ]] || missing "node is not installed (Debian's nodejs)"
[[ -f $npm_dir/node_modules/@vscode/debugadapter-testsupport/package.json ]] ||
  missing "the npm package @vscode/debugadapter-testsupport of $lock is not in $npm_dir"

export HOME="${TEST_TMPDIR:-/tmp}" XDG_CACHE_HOME="${TEST_TMPDIR:-/tmp}/cache"
export NODE_PATH=$npm_dir/node_modules
echo "$("$node" --version), $npm_dir"
exec "$node" "$root/tools/dap/dap_client_test.js" "$root/tools/spvsim" "$root/testdata/debug"
