"""Tagger and pipeline throughput on realistic synthetic notes (1-5 KB), in-process and through Triton.

Prints figures; asserts nothing. Usage (after ./dev.sh setup):

    .venv/bin/python bench/tagger_throughput.py [--notes 256] [--triton-url HOST:PORT | --start-triton]

Without --triton-url, --start-triton starts a local CPU tritonserver through scripts/services.sh.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import torch

from deid_core.detect.registry import LOCAL_DETECTORS, build_detectors
from deid_core.heap import freeze_loaded
from deid_core.pipeline import DetectionPipeline
from deid_core.tagger import default_model_dir
from deid_core.tagger.inprocess import InProcessTagger
from deid_core.tagger.triton import TritonTagger
from deid_tools.corpus import generate_notes
from schemas import EnrichedNote

ROOT = Path(__file__).resolve().parents[1]
BATCH_SIZES = (1, 8, 32, 64)


def realistic_notes(n: int) -> list[EnrichedNote]:
    """Held-out (test split) notes of 1-5 KB; short kinds are joined with the next note of the same patient."""
    out: list[EnrichedNote] = []
    pending = ""
    for g in generate_notes("test", n * 6, seed=11):
        text = (pending + "\n\n" + g.text) if pending else g.text
        if len(text) < 1000:
            pending = text
            continue
        pending = ""
        if len(text) <= 5000:
            out.append(EnrichedNote(g.id, text, g.patient))
        if len(out) == n:
            break
    return out


async def time_tagger(tagger: object, texts: list[str], batch: int) -> float:
    started = time.perf_counter()
    for i in range(0, len(texts), batch):
        await tagger.tag(texts[i : i + batch])  # type: ignore[attr-defined]
    return time.perf_counter() - started


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=256)
    parser.add_argument("--triton-url")
    parser.add_argument("--start-triton", action="store_true")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    notes = realistic_notes(args.notes)
    texts = [n.text for n in notes]
    chars = sum(map(len, texts))
    print(f"{len(texts)} held-out notes, {chars:,} chars (mean {chars / len(texts):,.0f}); torch threads {args.threads}")

    local = InProcessTagger.from_directory(default_model_dir())
    await local.tag(texts[:4])  # warm-up
    print("\nin-process tagger")
    for b in BATCH_SIZES:
        s = await time_tagger(local, texts, b)
        print(f"  batch {b:3d}: {chars / s:10,.0f} chars/s  {len(texts) / s:7.1f} notes/s")

    pipeline = DetectionPipeline(build_detectors(LOCAL_DETECTORS))
    freeze_loaded()  # as the CLI, worker and HTTP service do once built (deid_core.heap)
    started = time.perf_counter()
    for i in range(0, len(notes), 32):
        chunk = notes[i : i + 32]
        tagged = await local.tag([n.text for n in chunk])
        for note, extra in zip(chunk, tagged, strict=True):
            pipeline.combine(note, pipeline.detect_local(note), extra)
    s = time.perf_counter() - started
    print(f"\nin-process pipeline ({' + '.join(LOCAL_DETECTORS)} + tagger, hygiene, merge, batch 32): {chars / s:,.0f} chars/s  {len(notes) / s:.1f} notes/s")
    started = time.perf_counter()
    for note in notes:
        pipeline.detect(note)
    s = time.perf_counter() - started
    print(f"local detectors + hygiene + merge alone: {chars / s:,.0f} chars/s")

    url, proc_env = args.triton_url, None
    if not url and args.start_triton:
        proc_env = {**os.environ, "DEID_RUN_DIR": str(ROOT / ".run" / "bench-triton")}
        out = subprocess.run([str(ROOT / "scripts/services.sh"), "start", "triton"], env=proc_env, check=True, capture_output=True, text=True).stdout
        url = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)["DEID_TEST_TRITON_GRPC_URL"]
    if url:
        try:
            remote = TritonTagger(url, timeout_s=120)
            await remote.tag(texts[:4])
            print(f"\nTriton tagger at {url} (gRPC, python backend, CPU)")
            for b in BATCH_SIZES:
                s = await time_tagger(remote, texts, b)
                print(f"  batch {b:3d}: {chars / s:10,.0f} chars/s  {len(texts) / s:7.1f} notes/s")
            await remote.close()
        finally:
            if proc_env is not None:
                subprocess.run([str(ROOT / "scripts/services.sh"), "stop"], env=proc_env, check=False)


if __name__ == "__main__":
    asyncio.run(main())
    sys.exit(0)
