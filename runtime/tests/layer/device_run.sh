#!/usr/bin/env bash
# On a machine with other OpenCL drivers (the lent device machine: PoCL 5.0 and NVIDIA's
# OpenCL), from the repository root, after runtime/tests/layer/device_pack.sh packed
# build/device/: unpacks the toolchain, registers NVIDIA's ICD where its library is present
# but not registered, and runs each layer_host scenario on each platform without and
# with the layer, printing the application's status, whether its output changed under the
# layer (it must not), and the layer's diagnostics.
#   runtime/tests/layer/device_run.sh [PLATFORM_SUBSTRING...]   (default: every platform)
set -uo pipefail
root=$PWD
pack=$root/build/device
work=$(mktemp -d)
unpack() { (cd "$work" && "$pack/zstd" -d -q -c "$pack/$1" | tar -xf -); }
unpack layer.tar.zst && unpack toolchain.tar.zst || { echo "cannot unpack"; exit 2; }
export PATH="$work/layer:$PATH"
mkdir -p "$work/bin"
ln -s "$work/usr/lib/llvm-15/bin/clang" "$work/bin/clang-15"
ln -s "$work/usr/lib/llvm-15/bin/opt" "$work/bin/opt-15"
ln -s "$work/usr/bin/llvm-spirv-15" "$work/bin/llvm-spirv-15"
libs="$work/usr/lib/x86_64-linux-gnu:$work/usr/lib/llvm-15/lib:$work/layer"
ldconfig -p | grep -q 'libxml2.so.2 ' || unpack xml.tar.zst
# The loader must be one with layers: CUDA installs its own libOpenCL.so.1 (found first
# through ld.so.conf on NVIDIA machines), which ignores OPENCL_LAYERS; ocl-icd's goes first.
ocl_icd=/usr/lib/x86_64-linux-gnu/libOpenCL.so.1
if [[ -e $ocl_icd ]]; then
  mkdir -p "$work/loader" && ln -s "$ocl_icd" "$work/loader/libOpenCL.so.1"
  libs="$work/loader:$libs"
fi
export PATH="$work/bin:$PATH" LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "loader: $(ldd "$work/layer/layer_host" | grep libOpenCL)"
export HOME=$work SPVSIM_CACHE_DIR=$work/cache
clang-15 --version | head -n 1

nvidia=/usr/local/nvidia/lib64/libnvidia-opencl.so.1
if [[ -e $nvidia ]] && ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
  mkdir -p /etc/OpenCL/vendors && echo "$nvidia" >/etc/OpenCL/vendors/nvidia.icd
fi
ls /etc/OpenCL/vendors/

platforms=("$@")
if [[ ${#platforms[@]} -eq 0 ]]; then platforms=("Portable Computing Language" "NVIDIA CUDA"); fi
layer=$work/layer/libspvsim-layer.so
for platform in "${platforms[@]}"; do
  for scenario in correct subbuffer userevent oob wo partial; do
    echo "=== $platform: $scenario"
    layer_host "$scenario" --platform "$platform" >"$work/out0" 2>"$work/err0"
    OPENCL_LAYERS=$layer SPVSIM_DIAGNOSTICS="$work/diag" \
      layer_host "$scenario" --platform "$platform" >"$work/out1" 2>"$work/err1"
    echo "app: $(tail -n 1 "$work/out0") / under the layer: $(tail -n 1 "$work/out1")"
    cmp -s "$work/out0" "$work/out1" && echo "app output unchanged by the layer" ||
      { echo "APP OUTPUT CHANGED"; diff "$work/out0" "$work/out1" | head -n 6; }
    [[ $scenario == partial ]] && grep -v status "$work/out0" | tr '\n' ' ' && echo
    grep -v "^layer_host" "$work/err1" | head -n 5
    cat "$work/diag" 2>/dev/null | cut -c1-400
    rm -f "$work/diag"
  done
done
