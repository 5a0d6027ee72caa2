"""Whole-message throughput through the worker's processing path (no broker): messages/s per format.

Builds the processor exactly as a worker does (``workers.compose.build_processor``: rules + header +
in-process tagger, memory store) and times ``process_batch`` over batches of 32 messages: HL7 ORU and
MDM (the bundled samples, each copied with its own message and patient id), HL7 ADT (demographics
events), FHIR Bundles (the bundled sample Bundle, ids varied) and JSON note envelopes (held-out
synthetic notes, as the stream sweep sends them). Prints figures; asserts nothing.

The worker's settings come from the environment as in a worker: ``DEID_STORE=redis://...`` and
``DEID_TRITON_URL=host:port`` measure the path with the real store and Triton (for example the
services of ``scripts/services.sh start redis triton``); unset, the memory store and the in-process tagger.
``--batch 1`` gives the cost of a batch of one message, the fixed part of the stream's latency.

    .venv/bin/python bench/message_throughput.py [--copies 64] [--batch 32]
    .venv/bin/python bench/message_throughput.py --compare a57cd55   # the same bench on another commit too

With ``--compare REV`` the script also runs itself, unchanged, on a temporary ``git worktree`` of REV
(the older code is imported through PYTHONPATH) in the same session on the same machine, and prints
the before/after ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "workers" / "samples"
BATCH = 32


def hl7_copies(name: str, copies: int) -> list[bytes]:
    raw = (SAMPLES / name).read_bytes().replace(b"\r\n", b"\r").replace(b"\n", b"\r")
    out = []
    for i in range(copies):
        text = raw.decode("utf-8")
        # A fresh message control id and patient id per copy, so every copy is a new patient to the store.
        text = re.sub(r"^(MSH(?:\|[^|\r]*){8}\|)([^|\r]*)", lambda m, i=i: f"{m.group(1)}BENCH{i:06d}", text, flags=re.M)
        text = re.sub(r"^(PID\|[^|\r]*\|[^|\r]*\|)([^|^\r]*)", lambda m, i=i: f"{m.group(1)}97{i:06d}", text, flags=re.M)
        out.append(text.encode("utf-8"))
    return out


def fhir_copies(copies: int) -> list[bytes]:
    base = json.loads((SAMPLES / "bundle.json").read_text("utf-8"))
    out = []
    for i in range(copies):
        doc = json.loads(json.dumps(base).replace("pat-4821", f"pat-b{i:06d}"))
        doc["id"] = f"bench-bundle-{i:06d}"
        out.append(json.dumps(doc).encode())
    return out


def workloads(copies: int) -> dict[str, list[bytes]]:
    return {
        "hl7 ORU": hl7_copies("ORU-R01-LRI-CBC.hl7", copies),
        "hl7 MDM": hl7_copies("MDM-T02-02.hl7", copies) + hl7_copies("MDM-T02-03.hl7", copies),
        "hl7 ADT": hl7_copies("ADT-A01-01.hl7", copies),
        "fhir Bundle": fhir_copies(copies),
        "json note": json_notes(copies),
    }


def json_notes(copies: int) -> list[bytes]:
    from deid_tools.corpus import generate_notes

    return [
        json.dumps({"id": f"bench-note-{i:06d}", "text": g.text, "patient": g.patient.model_dump(mode="json")}).encode()
        for i, g in enumerate(generate_notes("test", copies, seed=7))
    ]


async def measure(copies: int, batch: int = BATCH) -> dict[str, dict[str, float]]:
    from workers.compose import build_processor
    from workers.processor import InMemoryDemographics, InputEvent, TopicNames
    from workers.settings import WorkerSettings

    processor = build_processor(WorkerSettings(), InMemoryDemographics(), TopicNames())
    results: dict[str, dict[str, float]] = {}
    warm = [InputEvent(v) for v in workloads(2)["hl7 MDM"]]
    await processor.process_batch(warm)  # loads the model and the FHIR models before timing
    for label, values in workloads(copies).items():
        events = [InputEvent(v, "in", 0, i) for i, v in enumerate(values)]
        started = time.perf_counter()
        published = dead = 0
        for i in range(0, len(events), batch):
            _, stats = await processor.process_batch(events[i : i + batch])
            published += stats.messages + stats.demographics
            dead += stats.dead_letters
        elapsed = time.perf_counter() - started
        results[label] = {
            "messages": len(events), "seconds": elapsed, "per_s": len(events) / elapsed,
            "bytes_per_s": sum(map(len, values)) / elapsed, "published": published, "dead_letters": dead,
        }  # fmt: skip
    return results


def _print(label: str, results: dict[str, dict[str, float]]) -> None:
    print(f"\n{label}")
    print(f"{'workload':14s} {'messages':>8s} {'msg/s':>8s} {'kB/s':>8s} {'out':>5s} {'dead':>5s}")
    for name, r in results.items():
        print(
            f"{name:14s} {r['messages']:8.0f} {r['per_s']:8.1f} {r['bytes_per_s'] / 1000:8.1f} "
            f"{r['published']:5.0f} {r['dead_letters']:5.0f}"
        )


def _run_other(rev: str, copies: int, batch: int) -> dict[str, dict[str, float]]:
    with tempfile.TemporaryDirectory(prefix="deid-bench-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev], check=True, capture_output=True)
        try:
            env = {**os.environ, "PYTHONPATH": str(tree)}
            out = subprocess.run(
                [sys.executable, str(Path(__file__).resolve()), "--copies", str(copies), "--batch", str(batch), "--json"],
                cwd=tree, env=env, check=True, capture_output=True, text=True,
            )
            return json.loads(out.stdout.strip().splitlines()[-1])
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False, capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=64, help="messages per workload (default: %(default)s)")
    parser.add_argument("--batch", type=int, default=BATCH, help="messages per process_batch call (default: %(default)s)")
    parser.add_argument("--compare", metavar="REV", help="also run on this git revision and print ratios")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ.setdefault("DEID_LOG_LEVEL", "warning")
    before = _run_other(args.compare, args.copies, args.batch) if args.compare else None
    after = asyncio.run(measure(args.copies, args.batch))
    if args.json:
        print(json.dumps(after))
        return 0
    if before is not None:
        _print(f"before ({args.compare})", before)
    _print("this checkout", after)
    if before is not None:
        print("\nratio this/before (msg/s): " + ", ".join(
            f"{k} {after[k]['per_s'] / before[k]['per_s']:.2f}" for k in after if k in before and before[k]["per_s"]
        ))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
