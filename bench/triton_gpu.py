"""Tagger throughput through a real tritonserver, with spans checked against the in-process CPU tagger.

Prints figures; asserts only that the served spans equal the in-process (NumPy, CPU) spans on a subset.
Run on a GPU machine (docs/deployment.md, "Triton on a GPU") or, tiny, as a CPU smoke test:

    .venv/bin/python bench/triton_gpu.py --config gpu --instances 4 --max-batch 256 \\
        --notes 1024 --batch 64 --concurrency 16 --processes 1,4
    .venv/bin/python bench/triton_gpu.py --url HOST:GRPC_PORT --notes 256      # a server already running

Without --url it starts tritonserver through scripts/services.sh on a copy of triton_models/ whose
config is configs/gpu.pbtxt (--config gpu) or config.pbtxt (cpu) with --instances and --max-batch
applied, and stops it at the end. Notes come from --notes-file (JSONL with a "text" field, e.g. from
``deid corpus -n 1024 -o notes.jsonl``), by default the handwritten evaluation notes, repeated to --notes.
``--processes`` client processes each send their share with ``--concurrency`` calls in flight: each
client tokenises its texts itself, as each worker does, so one process caps what a server can show.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import re
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MODEL = "phi_tagger"
MODEL_DIR = ROOT / "triton_models" / MODEL
DEFAULT_NOTES = ROOT / "eval" / "handwritten" / "gold.jsonl"
_COUNT = r"(instance_group \[ \{ count: )(\d+)"


def load_texts(path: Path, n: int) -> list[str]:
    """``n`` texts: the file's, in order, repeated as often as needed."""
    with path.open(encoding="utf-8") as f:
        texts = [json.loads(line)["text"] for line in f if line.strip()]
    if not texts:
        raise SystemExit(f"no notes in {path}")
    return [texts[i % len(texts)] for i in range(n)]


def model_config(kind: str, instances: int, max_batch: int, max_batch_windows: int | None) -> str:
    """The shipped config of that kind with the instance count and batch limits replaced."""
    base = MODEL_DIR / ("configs/gpu.pbtxt" if kind == "gpu" else "config.pbtxt")
    text = base.read_text()
    text = re.sub(r"max_batch_size: \d+", f"max_batch_size: {max_batch}", text, count=1)
    text = re.sub(_COUNT, rf"\g<1>{instances}", text, count=1)
    # Triton refuses preferred batch sizes above max_batch_size.
    preferred = [int(s) for s in re.search(r"preferred_batch_size: \[([^\]]*)\]", text).group(1).split(",")]  # type: ignore[union-attr]
    kept = ", ".join(str(s) for s in sorted({s for s in preferred if s < max_batch} | {max_batch}))
    text = re.sub(r"preferred_batch_size: \[[^\]]*\]", f"preferred_batch_size: [ {kept} ]", text, count=1)
    if max_batch_windows:
        text += f'\nparameters: {{ key: "max_batch_windows", value: {{ string_value: "{max_batch_windows}" }} }}\n'
    return text


@contextmanager
def started_server(config: str) -> Iterator[str]:
    """A tritonserver from scripts/services.sh serving the model with ``config``; its gRPC address."""
    with tempfile.TemporaryDirectory(prefix="triton-bench-") as tmp:
        repo = Path(tmp) / "repo" / MODEL
        repo.mkdir(parents=True)
        (repo / "config.pbtxt").write_text(config)
        for entry in MODEL_DIR.iterdir():
            if entry.is_dir() and entry.name.isdigit():
                (repo / entry.name).symlink_to(entry.resolve())
        env = {**os.environ, "DEID_RUN_DIR": str(Path(tmp) / "run"), "DEID_TRITON_MODEL_REPO": str(repo.parent)}
        services = [str(ROOT / "scripts" / "services.sh")]
        proc = subprocess.run([*services, "start", "triton"], env=env, capture_output=True, text=True, check=False)
        try:
            if proc.returncode != 0:
                raise SystemExit(f"tritonserver did not start:\n{proc.stderr[-3000:]}")
            values = dict(line.split("=", 1) for line in proc.stdout.splitlines() if "=" in line)
            yield values["DEID_TEST_TRITON_GRPC_URL"]
        finally:
            subprocess.run([*services, "stop"], env=env, capture_output=True, check=False)


async def _send(url: str, texts: Sequence[str], batch: int, concurrency: int) -> list[list[Any]]:
    from deid_core.tagger.triton import TritonTagger

    tagger = TritonTagger(url, max_batch_size=batch)
    gate = asyncio.Semaphore(concurrency)

    async def one(chunk: Sequence[str]) -> list[Any]:
        async with gate:
            return await tagger.tag(chunk)

    try:
        chunks = await asyncio.gather(*(one(texts[i : i + batch]) for i in range(0, len(texts), batch)))
    finally:
        await tagger.close()
    return [spans for chunk in chunks for spans in chunk]


def _client(url: str, texts: list[str], batch: int, concurrency: int, barrier: Any, out: Any) -> None:
    """One client process: a warm-up call, then its share of the notes after all clients are ready."""
    asyncio.run(_send(url, texts[:batch], batch, 1))
    barrier.wait()
    started = time.time()
    asyncio.run(_send(url, texts, batch, concurrency))
    out.put((started, time.time()))


def timed_run(url: str, texts: list[str], batch: int, concurrency: int, processes: int) -> float:
    """Seconds from the first client's start to the last client's end."""
    if processes == 1:
        asyncio.run(_send(url, texts[:batch], batch, 1))  # warm-up
        started = time.perf_counter()
        asyncio.run(_send(url, texts, batch, concurrency))
        return time.perf_counter() - started
    ctx = mp.get_context("spawn")  # no gRPC state crosses a fork
    barrier, out = ctx.Barrier(processes), ctx.Queue()
    shares = [texts[p::processes] for p in range(processes)]
    procs = [ctx.Process(target=_client, args=(url, s, batch, concurrency, barrier, out)) for s in shares]
    for p in procs:
        p.start()
    times = [out.get(timeout=3600) for _ in procs]
    for p in procs:
        p.join()
        if p.exitcode != 0:
            raise SystemExit(f"a client process failed (exit code {p.exitcode})")
    return max(t[1] for t in times) - min(t[0] for t in times)


def server_counts(url: str) -> tuple[int, int, int]:
    """(requests, texts, executions) the server has answered for the model so far."""
    import tritonclient.grpc as grpcclient

    client = grpcclient.InferenceServerClient(url=url)
    try:
        stats = client.get_inference_statistics(MODEL, as_json=True)["model_stats"]
    finally:
        client.close()
    requests = sum(int(s["inference_stats"]["success"].get("count", 0)) for s in stats)
    return requests, sum(int(s.get("inference_count", 0)) for s in stats), sum(int(s.get("execution_count", 0)) for s in stats)


def check_spans(url: str, texts: list[str], batch: int, concurrency: int) -> None:
    """The served spans equal the in-process NumPy tagger's on the CPU (asserted)."""
    from deid_core.tagger import default_model_dir
    from deid_core.tagger.inprocess import InProcessTagger

    served = asyncio.run(_send(url, texts, batch, concurrency))
    local = InProcessTagger.from_directory(default_model_dir(), device="cpu").tag_sync(texts)

    def key(docs: list[list[Any]]) -> list[list[tuple[int, int, str]]]:
        return [[(s.start, s.end, str(s.type)) for s in doc] for doc in docs]

    differ = [i for i, (a, b) in enumerate(zip(key(served), key(local), strict=True)) if a != b]
    print(f"span check: {len(texts)} notes, {sum(map(len, local))} spans, {len(differ)} notes differ {differ[:10]}")
    assert not differ, f"served spans differ from the in-process CPU tagger's on notes {differ[:10]}"


def run(args: argparse.Namespace, url: str) -> None:
    texts = load_texts(Path(args.notes_file), args.notes)
    chars = sum(map(len, texts))
    print(f"{len(texts)} notes, {chars:,} chars (mean {chars / len(texts):,.0f}) from {args.notes_file}")
    for processes in args.processes:
        print(f"client: batch {args.batch}, {args.concurrency} calls in flight x {processes} processes; server {url}")
        before = server_counts(url)
        seconds = timed_run(url, texts, args.batch, args.concurrency, processes)
        after = server_counts(url)
        requests, rows, executions = (a - b for a, b in zip(after, before, strict=True))
        print(f"throughput: {chars / seconds:,.0f} chars/s, {len(texts) / seconds:,.1f} notes/s ({seconds:.2f} s)")
        if executions:
            print(f"server: {requests} requests in {executions} executions, {rows / executions:.1f} texts per execution (warm-up included)")
    check_spans(url, texts[: args.check], args.batch, args.concurrency)


def _counts(value: str) -> list[int]:
    counts = [int(v) for v in value.split(",") if v.strip()]
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("expected positive integers, comma-separated")
    return counts


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="gRPC host:port of a running tritonserver (default: start one)")
    parser.add_argument("--config", choices=["cpu", "gpu"], default="gpu", help="which shipped config to start from")
    parser.add_argument("--instances", type=int, default=None, help="model instances (default: the config's)")
    parser.add_argument("--max-batch", type=int, default=None, help="server max_batch_size (default: the config's)")
    parser.add_argument("--max-batch-windows", type=int, default=None, help="windows per model call in the stub")
    parser.add_argument("--notes", type=int, default=1024)
    parser.add_argument("--notes-file", default=str(DEFAULT_NOTES))
    parser.add_argument("--batch", type=int, default=64, help="texts per client request")
    parser.add_argument("--concurrency", type=int, default=16, help="requests in flight per client process")
    parser.add_argument(
        "--processes", type=_counts, default=[1], help="client processes; a comma list (1,4,8) runs each against one server"
    )
    parser.add_argument("--check", type=int, default=256, help="notes whose spans are compared with the CPU tagger")
    args = parser.parse_args(argv)
    if args.url:
        run(args, args.url)
        return
    base = (MODEL_DIR / ("configs/gpu.pbtxt" if args.config == "gpu" else "config.pbtxt")).read_text()
    instances = args.instances or int(re.search(_COUNT, base).group(2))  # type: ignore[union-attr]
    max_batch = args.max_batch or int(re.search(r"max_batch_size: (\d+)", base).group(1))  # type: ignore[union-attr]
    if args.batch > max_batch:
        raise SystemExit(f"--batch {args.batch} exceeds the server's max_batch_size {max_batch}")
    print(f"starting tritonserver: {args.config} config, {instances} instances, max batch {max_batch}")
    with started_server(model_config(args.config, instances, max_batch, args.max_batch_windows)) as url:
        run(args, url)


if __name__ == "__main__":
    main()
