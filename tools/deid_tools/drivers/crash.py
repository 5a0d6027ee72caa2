"""Crash recovery under load: `deid worker` processes SIGKILLed mid-batch while they de-identify canary notes.

Shared by tests/integration/test_crash_recovery.py (CI size) and bench/crash_run.py (longer runs).

The run: canary messages (HL7 MDM/ORU, FHIR Bundle, JSON envelope; key = message id) are produced up
front to an input topic with 2 partitions; ``workers`` worker processes in one consumer group, sharing a
Redis mapping store and an HMAC secret, work through them. Whenever the number of distinct outputs has
grown by notes / (2 x kills) since the last kill, the killer polls the workers' /metrics and SIGKILLs one that is
mid-batch (events taken into a batch but not yet published; alternating between workers when both are),
then starts a replacement (a new process on a new web port, same group). When every input has an
output, the workers are stopped, the recorder reads until the topics are quiet, and every record of
the output topics is checked.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from aiokafka import AIOKafkaProducer

from deid_core.surrogate.keys import load_secret
from deid_tools.drivers.canaries import (
    canary_messages,
    expected_output_key,
    find_canaries,
    make_canary_patients,
)
from deid_tools.drivers.stream import (
    Consumed,
    StreamSetup,
    TopicRecorder,
    Worker,
    create_input_topics,
    in_flight,
)

OUTPUT_TOPICS = ("notes_out", "json_out", "dead_letter", "audit")


@dataclass(frozen=True)
class CrashConfig:
    patients: int = 50
    notes_per_patient: int = 20
    kills: int = 10
    workers: int = 2
    seed: int = 7
    timeout_s: float = 600.0

    @property
    def notes(self) -> int:
        return self.patients * self.notes_per_patient


@dataclass
class CrashReport:
    sent: int = 0
    outputs: int = 0
    distinct: int = 0
    json_distinct: int = 0
    duplicates: int = 0
    missing: list[str] = field(default_factory=list)
    json_missing: list[str] = field(default_factory=list)
    unexpected_keys: int = 0
    differing: list[str] = field(default_factory=list)
    """Output keys whose duplicate records differ in value or headers (notes and JSON topics)."""
    dead_letters: int = 0
    canary_hits: dict[str, set[str]] = field(default_factory=dict)
    """``topic/key`` -> canary values found in that record."""
    kills: int = 0
    in_flight_at_kill: list[int] = field(default_factory=list)
    wall_s: float = 0.0

    def lines(self) -> list[str]:
        mid = sum(1 for n in self.in_flight_at_kill if n > 0)
        return [
            f"notes sent {self.sent}; notes-out records {self.outputs}, distinct keys {self.distinct} "
            f"(json-out distinct {self.json_distinct}); duplicates {self.duplicates}",
            f"missing {len(self.missing)} (json-out {len(self.json_missing)}); unexpected keys {self.unexpected_keys}; "
            f"duplicates that differ {len(self.differing)}; dead letters {self.dead_letters}",
            f"records with canary PHI {len(self.canary_hits)}; values found "
            f"{sorted({v for vs in self.canary_hits.values() for v in vs})[:10]}",
            f"kills {self.kills} (mid-batch {mid}; events in flight at each kill {self.in_flight_at_kill}); "
            f"wall time {self.wall_s:.1f} s",
        ]


async def _metrics(worker: Worker) -> str | None:
    if worker.proc.poll() is not None:
        return None
    try:
        return await asyncio.to_thread(worker.metrics)
    except OSError:  # not listening yet (a replacement starting) or already gone
        return None


async def run_crash(
    setup: StreamSetup, log_dir: Path, config: CrashConfig, progress: Callable[[int], None] | None = None
) -> CrashReport:
    """Run the scenario; ``setup`` must name a shared store (Redis) and a secret file."""
    if setup.secret_file is None:
        raise ValueError("run_crash needs setup.secret_file: output keys are computed from it")
    key = load_secret(setup.secret_file)
    patients = make_canary_patients(config.patients, config.seed)
    messages = canary_messages(patients, config.notes_per_patient, config.seed)
    expected = {expected_output_key(key, fmt, k.decode()): k.decode() for k, _, fmt in messages}
    report = CrashReport(sent=len(messages))
    topics = {setup.topic(t): t for t in OUTPUT_TOPICS}
    notes_out, json_out = setup.topic("notes_out"), setup.topic("json_out")
    seen: dict[str, set[bytes]] = {notes_out: set(), json_out: set()}

    def on_record(r: Consumed) -> None:
        topic, k = r.topic, r.key
        if topic in seen and k in expected:
            before = len(seen[notes_out])
            seen[topic].add(k)
            if progress is not None and topic == notes_out and len(seen[notes_out]) > before:
                progress(1)

    started = time.monotonic()
    await create_input_topics(setup)
    recorder = TopicRecorder(setup.bootstrap, list(topics), on_record=on_record)
    await recorder.start()
    workers: list[Worker] = []
    try:
        producer = AIOKafkaProducer(bootstrap_servers=setup.bootstrap, acks="all", linger_ms=5)
        await producer.start()
        try:
            futures = [await producer.send(setup.topic("notes_in"), v, key=k) for k, v, _ in messages]
            await asyncio.gather(*futures)
        finally:
            await producer.stop()
        workers = [Worker(setup, log_dir) for _ in range(config.workers)]
        await asyncio.gather(*(asyncio.to_thread(w.wait_ready, 120) for w in workers))

        def done() -> bool:
            return len(seen[notes_out]) >= len(expected) and len(seen[json_out]) >= len(expected)

        # Two kill opportunities per required kill: a kill also waits for a busy worker, and under load
        # the notes can run out before ``kills`` kills when the kills are spaced wider.
        step = max(1, len(messages) // (2 * config.kills))
        next_kill_at = step
        prefer = 0
        deadline = time.monotonic() + config.timeout_s
        while not done() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
            for w in workers:  # the killed ones were replaced: any exit here is a crash of its own
                if w.proc.poll() is not None:
                    raise RuntimeError(f"a worker exited by itself ({w.proc.returncode}); see {w.log_path}")
            if report.kills >= config.kills or len(seen[notes_out]) < next_kill_at:
                continue
            # Kill a worker that is mid-batch, alternating: metrics are polled, the SIGKILL follows at once.
            for idx in [(prefer + i) % len(workers) for i in range(len(workers))]:
                text = await _metrics(workers[idx])
                busy = in_flight(text) if text is not None else 0
                if busy > 0:
                    workers[idx].stop(signal.SIGKILL)
                    report.kills += 1
                    report.in_flight_at_kill.append(busy)
                    workers[idx] = Worker(setup, log_dir)
                    prefer = idx + 1
                    next_kill_at = len(seen[notes_out]) + step
                    break
        # Graceful stops (commits) in threads, so that the recorder goes on reading meanwhile.
        await asyncio.gather(*(asyncio.to_thread(w.stop) for w in workers))
        await recorder.settle(idle_s=3.0)
    finally:
        for w in workers:
            w.stop(signal.SIGKILL, timeout_s=5)
        await recorder.stop()
    report.wall_s = time.monotonic() - started

    values: dict[tuple[str, bytes], set[tuple[bytes, tuple[tuple[str, bytes], ...]]]] = defaultdict(set)
    per_key: Counter[bytes] = Counter()
    for r in recorder.records:
        hits = find_canaries(r.key + b"\n" + r.value + b"\n" + b"\n".join(k.encode() + b"=" + v for k, v in r.headers), patients)
        if hits:
            report.canary_hits[f"{r.topic}/{r.key.decode(errors='replace')}"] = hits
        if r.topic == notes_out:
            per_key[r.key] += 1
        if r.topic in (notes_out, json_out):
            values[(r.topic, r.key)].add((r.value, r.headers))
        if r.topic == setup.topic("dead_letter"):
            report.dead_letters += 1
    report.outputs = sum(per_key.values())
    report.distinct = len(per_key.keys() & expected.keys())
    report.json_distinct = len(seen[json_out])
    report.duplicates = report.outputs - len(per_key)
    report.unexpected_keys = len(per_key.keys() - expected.keys())
    report.missing = sorted(expected[k] for k in expected.keys() - per_key.keys())
    report.json_missing = sorted(expected[k] for k in expected.keys() - seen[json_out])
    report.differing = sorted(f"{t}/{k.decode()}" for (t, k), vs in values.items() if len(vs) > 1)
    return report
