#!/usr/bin/env bash
# spvsim dap driven by a scripted DAP client (tools/dap/dap_test.py), over stdio and --port.
set -euo pipefail
exec /usr/bin/python3 "$PWD/tools/dap/dap_test.py" "$PWD/tools/spvsim" "$PWD/testdata/debug/branch.cl" \
  "$PWD/tools/dap/dap_test_plugin.so"
