#!/usr/bin/env bash
# Packs what bench/triton_gpu.py needs on a GPU machine that has Python 3.12 + torch but no network
# (../shared/STACK.md, "Triton on a GPU machine") into .gpu/ (git-ignored, carried by the device tool):
#   .gpu/triton.tar.xz  tritonserver, its python backend, the 3.12 stub and the wheel's libraries it links
#   .gpu/whl/           cp312 wheels of the client and stub packages at this venv's versions
# (torch, PyYAML and ml_dtypes come from the machine; 64 MiB travel in all.) Then, on the GPU machine, from the repository root: scripts/gpu_bench.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENV="${DEID_VENV:-$ROOT/.venv}"
OUT="$ROOT/.gpu"
site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
pkg="$site/pytriton/tritonserver"; libs="$site/nvidia_pytriton.libs"
rm -rf "$OUT"; mkdir -p "$OUT/whl" "$OUT/stage/pytriton/tritonserver/python_backend_stubs/3.12" "$OUT/stage/nvidia_pytriton.libs"
cp -r "$pkg/bin" "$pkg/backends" "$OUT/stage/pytriton/tritonserver/"
cp "$pkg/python_backend_stubs/3.12/triton_python_backend_stub" "$OUT/stage/pytriton/tritonserver/python_backend_stubs/3.12/"
: >"$OUT/stage/pytriton/__init__.py"   # services.sh only locates the package; its real __init__ is not needed
# Only the libraries that the server, the backend and the stub link (about 40 of the wheel's files).
for f in "$pkg/bin/tritonserver" "$pkg/backends/python/libtriton_python.so" "$pkg/python_backend_stubs/3.12/triton_python_backend_stub"; do
  LD_LIBRARY_PATH="$libs" ldd "$f" | awk '$3 ~ /nvidia_pytriton\.libs\// {n = split($3, p, "/"); print p[n]}'
done | sort -u | xargs -I{} cp "$libs/{}" "$OUT/stage/nvidia_pytriton.libs/"
tar -C "$OUT/stage" -cJf "$OUT/triton.tar.xz" pytriton nvidia_pytriton.libs
rm -rf "$OUT/stage"
version() { "$VENV/bin/python" -c "import importlib.metadata as m; print(m.version('$1'))"; }
wheels=()
for name in pydantic pydantic-core annotated-types typing-inspection typing-extensions tritonclient python-rapidjson \
            grpcio protobuf numpy; do
  wheels+=("$name==$(version "$name")")
done
"$VENV/bin/python" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 --platform manylinux1_x86_64 --platform manylinux_2_24_x86_64 \
  --platform manylinux_2_31_x86_64 --platform manylinux_2_34_x86_64 -d "$OUT/whl" "${wheels[@]}"
du -sh "$OUT"/* >&2
