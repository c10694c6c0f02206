#!/usr/bin/env bash
# Installs the Debian 12 packages spvsim needs to build, test and compare against peers,
# then the npm package of the DAP client test (below). Idempotent and quiet: prints
# nothing (and runs no apt-get or npm at all) when everything is already installed; runs
# `apt-get update` once, then installs only what is missing. Works as root; otherwise uses
# sudo when it exists (for apt-get only: the npm package goes to the user's cache).
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  bazel-bootstrap bazel-rules-java          # Bazel 4.2.3 + the rules_java it needs offline
  spirv-tools spirv-headers                 # SPIR-V validation, assembler, grammar
  clang-15 llvm-spirv-15 llvm-15            # OpenCL C -> SPIR-V (llvm-dis-15: arg info)
  libfmt-dev googletest libgtest-dev        # libraries
  libc6-dev                                 # libmvec (glibc's vector libm), named for clarity
  libreadline-dev tmux                      # spvsim debug: line editing; its terminal test
  ocl-icd-opencl-dev opencl-headers clinfo  # OpenCL ICD loader + headers
  python3-pyopencl python3-numpy            # host-side clients (bench, cross-checks)
  oclgrind pocl-opencl-icd                  # peers the tests/bench compare against
  parallel                                  # GNU parallel: spvsim check's sharding test
  chromium                                  # renders run --profile's page (profile_test)
  nodejs npm                                # VS Code's DAP client (dap_client_test)
)
# Packages that count as installed when their command is there: NodeSource's nodejs
# carries npm and conflicts with Debian's npm package.
declare -A COMMAND_OF=([npm]=npm)

missing=()
for p in "${PACKAGES[@]}"; do
  if [[ -n ${COMMAND_OF[$p]:-} ]] && command -v "${COMMAND_OF[$p]}" >/dev/null 2>&1; then
    continue
  fi
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -gt 0 ]]; then
  if [[ $(id -u) -eq 0 ]]; then
    SUDO=()
  elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
  else
    echo "setup-debian.sh: missing packages: ${missing[*]}" >&2
    echo "setup-debian.sh: not root and no sudo; install them as root" >&2
    exit 1
  fi
  echo "setup-debian.sh: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# VS Code's DAP client (@vscode/debugadapter-testsupport, at the exact version of
# tools/dap/client/package-lock.json) for //tools/dap:dap_client_test, from the npm
# registry into the user's cache, outside the source tree: one folder per lock file
# (named by its hash, which the test computes the same way), installed in a temporary
# folder and renamed into place, so that a folder that exists is complete and worktrees
# with different locks do not disturb each other.
# The home folder is the user's entry in the password database (what the test, whose
# HOME Bazel sets to its temporary folder, reads too); SPVSIM_NPM_DIR replaces the root.
lock=tools/dap/client/package-lock.json
home=$(getent passwd "$(id -u)" | cut -d: -f6 || true)
npm_root=${SPVSIM_NPM_DIR:-${home:-$HOME}/.cache/spvsim/npm}
npm_dir=$npm_root/$(sha256sum "$lock" | cut -c1-16)
if [[ ! -d $npm_dir/node_modules/@vscode/debugadapter-testsupport ]]; then
  echo "setup-debian.sh: installing the npm packages of $lock into $npm_dir" >&2
  mkdir -p "$npm_root"
  tmp=$(mktemp -d "$npm_dir.tmp.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  cp tools/dap/client/package.json "$lock" "$tmp/"
  (cd "$tmp" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
  mv -T "$tmp" "$npm_dir" 2>/dev/null || [[ -d $npm_dir/node_modules ]]  # or another setup won
fi
