#!/usr/bin/env bash
# Installs the Debian 12 packages spvsim needs to build, test and compare against peers.
# Idempotent and quiet: prints nothing (and runs no apt-get at all) when everything is
# already installed; runs `apt-get update` once, then installs only what is missing.
# Works as root; otherwise uses sudo when it exists.
set -euo pipefail

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
)

missing=()
for p in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

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
