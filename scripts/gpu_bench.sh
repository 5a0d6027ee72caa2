#!/usr/bin/env bash
# Runs on a GPU machine (Python 3.12 with torch, no network), from the repository root, after
# scripts/gpu_pack.sh filled .gpu/ here. Builds a stub environment in $GPU_WORK (numpy 1.26 first, then the
# machine's torch through a .pth, then this project), puts torch's own CUDA libraries first on
# tritonserver's library path, and runs bench/triton_gpu.py once per instance count, each server with
# several client process counts, asserting span identity with the CPU tagger each time.
#   scripts/gpu_bench.sh [INSTANCES...]        (default: 2 4 8)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
W="${GPU_WORK:-/tmp/deid-gpu}"
NOTES="${GPU_NOTES:-3072}"; PROCESSES="${GPU_PROCESSES:-4,8,12}"
rm -rf "$W"; mkdir -p "$W/torch-libs"
python3 -m venv --without-pip "$W/venv"
site=$("$W/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
python3 -m pip install -q --no-index --no-deps --no-compile --target "$site" "$ROOT"/.gpu/whl/*.whl
tar -xJf "$ROOT/.gpu/triton.tar.xz" -C "$site"
torch_site=$(python3 -c 'import os, torch; print(os.path.dirname(os.path.dirname(torch.__file__)))')
echo "$ROOT" >"$site/deid_project.pth"
echo "$torch_site" >"$site/zz_machine.pth"   # after site-packages: this numpy 1.26 wins over the machine's numpy 2
find "$torch_site/nvidia" -name 'lib*.so*' -exec ln -sf {} "$W/torch-libs/" \;
export DEID_VENV="$W/venv" DEID_TRITON_LIBRARY_PATH="$W/torch-libs" PYTHONUNBUFFERED=1
PY="$W/venv/bin/python"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
echo "cores: $(nproc)"
"$PY" -c 'import numpy, torch; print("numpy", numpy.__version__, "torch", torch.__version__, "cuda", torch.cuda.is_available(), "cudnn", torch.backends.cudnn.version())'
for n in "${@:-2 4 8}"; do
  for i in $n; do
    echo "=== $i instances"
    "$PY" bench/triton_gpu.py --config gpu --instances "$i" --max-batch 256 --notes "$NOTES" --batch 64 \
      --concurrency 8 --processes "$PROCESSES" --check 256 || echo "=== $i instances FAILED (exit $?)"
  done
done
echo "=== in-process TaggerRuntime on cuda (one process: tokenising, model, decoding)"
"$PY" - <<'PY'
import json, time
from deid_core.tagger import default_model_dir
from deid_core.tagger.inprocess import InProcessTagger
texts = [json.loads(line)["text"] for line in open("eval/handwritten/gold.jsonl")] * 24
tagger = InProcessTagger.from_directory(default_model_dir(), device="cuda")
tagger.tag_sync(texts[:64])
started = time.perf_counter(); tagger.tag_sync(texts); seconds = time.perf_counter() - started
print(f"{len(texts)} notes, {sum(map(len, texts)):,} chars: {sum(map(len, texts)) / seconds:,.0f} chars/s in one process")
PY
