#!/usr/bin/env bash
# Packs what the layer's scenarios need on a machine without Debian 12's toolchain (the
# lent device machine: another distribution, no clang-15, no llvm-spirv-15) into
# build/device/ (ignored by git; at most ~60 MiB, the device tool's carry limit):
#   zstd      to unpack the rest
#   layer.tar.zst      libspvsim-layer.so, layer_host, libfmt.so.9
#   toolchain.tar.zst  clang-15, opt-15, llvm-spirv-15 and their libraries (compressed),
#                      with clang's headers (the OpenCL C header among them)
#   xml.tar.zst        libxml2 and its ICU, for a machine without libxml2.so.2
# runtime/tests/layer/device_run.sh unpacks and runs them there:
#   runtime/tests/layer/device_pack.sh && <device> runtime/tests/layer/device_run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
bazel build //runtime/layer:libspvsim-layer.so //runtime/tests/layer:layer_host
out=build/device
bin=$(bazel info bazel-bin 2>/dev/null)
mkdir -p "$out"
install -m 755 /usr/bin/zstd "$out/"
staging=$(mktemp -d)
mkdir "$staging/layer"
install -m 755 "$bin/runtime/layer/libspvsim-layer.so" "$bin/runtime/tests/layer/layer_host" \
  "$staging/layer/"
cp -L /usr/lib/x86_64-linux-gnu/libfmt.so.9 "$staging/layer/"
tar -C "$staging" -cf - layer | zstd -T0 -19 -q -f -o "$out/layer.tar.zst"
rm -rf "$staging"
lib=usr/lib/x86_64-linux-gnu
if [[ ! -s $out/toolchain.tar.zst ]]; then
  tar -C / -chf - $lib/libLLVM-15.so.1 usr/lib/llvm-15/lib/libclang-cpp.so.15 \
    $lib/libLLVMSPIRVLib.so.15 $lib/libz3.so.4 $lib/libffi.so.8 $lib/libedit.so.2 \
    $lib/libbsd.so.0 $lib/libmd.so.0 usr/lib/llvm-15/bin/clang usr/lib/llvm-15/bin/opt \
    usr/bin/llvm-spirv-15 usr/lib/llvm-15/lib/clang/15.0.6/include |
    zstd -T0 -19 --long=27 -q -f -o "$out/toolchain.tar.zst"
fi
if [[ ! -s $out/xml.tar.zst ]]; then
  tar -C / -chf - $lib/libxml2.so.2 $lib/libicuuc.so.72 $lib/libicudata.so.72 |
    zstd -T0 -19 -q -f -o "$out/xml.tar.zst"
fi
du -ch "$out"/* | tail -n 1
