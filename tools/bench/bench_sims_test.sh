#!/usr/bin/env bash
# Fails when a checked-in tools/bench/kernels/*.sim differs from what kernels.py
# generates for it (regenerate with `run.py --write-sims`).
set -euo pipefail
exec /usr/bin/python3 tools/bench/run.py --check-sims "$@"
