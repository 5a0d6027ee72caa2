"""The ``deid`` command line: detect, deidentify, eval, corpus, demo, worker and serve.

Input records are JSONL ``{"id", "text", "patient"?}``. All input is read and validated before any
output is written, so a bad line means a clear error on stderr, a non-zero exit and no partial output.
Nothing here prints note text or PHI to stderr or logs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from deid_core.detect.registry import (
    DEFAULT_DETECTORS,
    KNOWN_DETECTORS,
    TAGGER,
    build_detectors,
    parse_detector_names,
)
from deid_core.pipeline import DetectionPipeline
from deid_core.tagger.base import TaggerUnavailable
from schemas import DeidentifiedNote, EnrichedNote, NoteRecord, Span
from schemas.jsonl import InputError, read_note_records

log = logging.getLogger("deid.cli")

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1


class CliError(Exception):
    """An error whose message is safe and sufficient to show the user."""


class BadInputError(CliError):
    """Bad input (exit code 2); the message names files and error codes, never their content."""


class ToolingMissingError(BadInputError):
    """A tooling command (corpus, train, eval, demo) where deid-stream-tools is not installed (exit code 2)."""


TOOLING_MISSING = "this command needs the tooling: pip install -e tools/ (deid-stream-tools)"


def _require_tooling() -> None:
    """The corpus, evaluation and training live in their own distribution (tools/), which the worker image
    leaves out; the commands that use them check for it before importing anything from it."""
    import importlib.util

    if importlib.util.find_spec("deid_tools") is None:
        raise ToolingMissingError(TOOLING_MISSING)


# ---------------------------------------------------------------------------------------------- helpers


def _open_input(path: str | None) -> IO[bytes]:
    if path in (None, "-"):
        return sys.stdin.buffer
    try:
        return open(path, "rb")  # noqa: SIM115 - closed by the caller
    except OSError as exc:
        raise CliError(f"cannot open input {path}: {exc.strerror}") from None


def _read_records(path: str | None) -> list[NoteRecord]:
    stream = _open_input(path)
    try:
        return read_note_records(stream, source=path if path not in (None, "-") else "stdin")
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _open_output(path: str | None) -> IO[str]:
    if path in (None, "-"):
        return sys.stdout
    try:
        return open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by the caller
    except OSError as exc:
        raise CliError(f"cannot open output {path}: {exc.strerror}") from None


def _spans_json(spans: Sequence[Span]) -> list[dict[str, object]]:
    return [s.to_json() for s in spans]


def _detection_pipeline(args: argparse.Namespace) -> DetectionPipeline:
    try:
        names = parse_detector_names(args.detectors)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    tagger = None
    if TAGGER in names:
        from deid_core.tagger import build_tagger

        try:
            tagger = build_tagger(args.triton_url, args.tagger_model_dir)
        except FileNotFoundError as exc:
            raise CliError(str(exc)) from None
    return DetectionPipeline(build_detectors(names), tagger)


class _Bar:
    """A progress bar on stderr (by default only when stderr is a terminal), or nothing."""

    def __init__(self, total: int, desc: str, enabled: bool | None) -> None:
        show = sys.stderr.isatty() if enabled is None else enabled
        self._bar: Any = None
        if show:
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=desc, unit="note", file=sys.stderr)

    def update(self, n: int) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def _write_jsonl(out: IO[str], rows: Any) -> int:
    n = 0
    for row in rows:
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
        n += 1
    out.flush()
    return n


def _write_output(path: str | None, rows: Any) -> int:
    out = _open_output(path)
    try:
        return _write_jsonl(out, rows)
    finally:
        if out is not sys.stdout:
            out.close()


DETECT_WORKERS_ENV = "DEID_DETECT_WORKERS"


def _detect_workers(n_batches: int) -> int:
    """Worker processes for a detect/eval run: ``$DEID_DETECT_WORKERS``, else one per usable CPU, never
    more than there are batches (a single batch is run in this process)."""
    from deid_core.tagger.threads import usable_cpus

    raw = os.environ.get(DETECT_WORKERS_ENV, "").strip()
    try:
        wanted = int(raw) if raw else usable_cpus()
    except ValueError:
        raise CliError(f"{DETECT_WORKERS_ENV} must be a whole number, not {raw!r}") from None
    return max(1, min(wanted, n_batches))


async def _detect_all(
    pipeline: DetectionPipeline, notes: Sequence[EnrichedNote], batch_size: int, bar: _Bar
) -> list[list[Span]]:
    """Local detectors per note, one tagger call per batch of ``batch_size`` notes."""
    found: list[list[Span]] = []
    try:
        for i in range(0, len(notes), batch_size):
            chunk = notes[i : i + batch_size]
            found.extend(await pipeline.detect_batch(chunk))
            bar.update(len(chunk))
    finally:
        await pipeline.close()
    return found


def _run_detection(
    pipeline: DetectionPipeline, notes: Sequence[EnrichedNote], args: argparse.Namespace
) -> list[list[Span]]:
    """Every note's spans, in input order. With an in-process tagger (or none) and several CPUs, the
    batches are spread over forked worker processes, each on one core; the spans are the same as one
    process gives (deid_core.pipeline.detect_in_processes). A remote tagger keeps one process, whose
    local detectors overlap the server's work on each batch."""
    from deid_core.pipeline import can_fork, detect_in_processes

    batch_size = max(1, args.batch_size)
    workers = _detect_workers(-(-len(notes) // batch_size))
    bar = _Bar(len(notes), "detect", args.progress)
    try:
        if workers > 1 and pipeline.fork_safe and can_fork():
            try:
                return detect_in_processes(pipeline, notes, batch_size, workers, bar.update)
            finally:
                asyncio.run(pipeline.close())
        return asyncio.run(_detect_all(pipeline, notes, batch_size, bar))
    except TaggerUnavailable as exc:
        raise CliError(f"{exc}; nothing was written") from None
    finally:
        bar.close()


# --------------------------------------------------------------------------------------------- commands


def cmd_detect(args: argparse.Namespace) -> int:
    from deid_core.message.policy import PolicyError, load_policy
    from deid_core.message.text import reported

    try:
        policy = load_policy(args.policy)
    except PolicyError as exc:
        raise CliError(str(exc)) from None
    notes = [EnrichedNote.from_record(r) for r in _read_records(args.input)]
    # Only what the policy changes is reported: Safe Harbor keeps states and ages under 90, for one.
    found = [reported(policy, s, n.text) for n, s in zip(notes, _run_detection(_detection_pipeline(args), notes, args), strict=True)]
    n = _write_output(
        args.output, ({"id": note.note_id, "spans": _spans_json(s)} for note, s in zip(notes, found, strict=True))
    )
    log.info("detect: %d notes", n)
    return EXIT_OK


async def _message_pipeline(args: argparse.Namespace, detection: DetectionPipeline) -> Any:
    """The worker's message path with this command's store, key ring and policy."""
    from pydantic import ValidationError

    from deid_core.surrogate.engine import SurrogateConfig, Surrogator
    from deid_core.surrogate.keys import load_keyring
    from workers.compose import ConfigurationError, build_pipeline, build_store
    from workers.security import redis_options, settings_error_message
    from workers.settings import WorkerSettings

    try:
        # Redis AUTH/TLS and the previous keys of a rotation come from the same DEID_* settings as the
        # worker's, so the CLI and the workers agree on every surrogate.
        env = WorkerSettings()
        redis = redis_options(env) if args.store != "memory" else None
    except ValidationError as exc:
        raise CliError(settings_error_message(exc)) from None
    except ConfigurationError as exc:
        raise CliError(str(exc)) from None
    try:
        keyring = load_keyring(args.secret_file, env.previous_secret_files if args.secret_file else ())
    except OSError as exc:
        raise CliError(f"cannot read --secret-file: {exc.strerror}") from None
    except ValueError as exc:  # a short secret or a bad version label; the message never holds the secret
        raise CliError(f"--secret-file: {exc}") from None
    try:
        store = build_store(args.store, redis)
    except ConfigurationError:
        raise CliError("unknown --store: use 'memory' or a redis:// URL") from None
    config = SurrogateConfig(date_shift_min_days=args.date_shift_min_days, date_shift_max_days=args.date_shift_max_days)
    surrogator = Surrogator(store, keyring, config)
    try:
        pipeline = build_pipeline(detection, surrogator, args.policy, keyring.chain[0])
    except ConfigurationError as exc:
        raise CliError(str(exc).removeprefix("DEID_POLICY: ")) from None
    await store.ping()
    return pipeline


async def _deidentify_async(args: argparse.Namespace, work: Any) -> Any:
    from workers.cli_deidentify import DeidentifyError
    from workers.processor import DependencyUnavailable, dependency_errors

    detection = _detection_pipeline(args)
    bar = _Bar(work.total, "deidentify", args.progress)
    pipeline = None
    try:
        with dependency_errors():
            pipeline = await _message_pipeline(args, detection)
            return await work.run(pipeline, bar)
    except DependencyUnavailable as exc:  # the message names the service and error type, never data
        raise CliError(f"{exc}; nothing was written") from None
    except TaggerUnavailable as exc:
        raise CliError(f"{exc}; nothing was written") from None
    except DeidentifyError as exc:
        if exc.bad_input:
            raise BadInputError(f"{exc}; no output was written") from None
        raise CliError(str(exc)) from None
    finally:
        bar.close()
        await detection.close()
        if pipeline is not None:
            await pipeline.surrogator.store.close()


class _RecordWork:
    def __init__(self, records: Sequence[NoteRecord], batch_size: int) -> None:
        self.records, self.batch_size, self.total = records, batch_size, len(records)

    async def run(self, pipeline: Any, bar: _Bar) -> list[DeidentifiedNote]:
        from workers.cli_deidentify import deidentify_records

        return await deidentify_records(pipeline, self.records, self.batch_size, bar)


def _deidentify(records: Sequence[NoteRecord], args: argparse.Namespace) -> list[DeidentifiedNote]:
    """Note records through the message path; any failure raises before anything is written."""
    return asyncio.run(_deidentify_async(args, _RecordWork(records, max(1, args.batch_size))))


def _deidentified_rows(results: Sequence[DeidentifiedNote]) -> Any:
    return ({"id": r.note_id, "text": r.text, "spans": _spans_json(r.spans)} for r in results)


def cmd_deidentify(args: argparse.Namespace) -> int:
    if args.date_shift_min_days < 1 or args.date_shift_max_days < args.date_shift_min_days:
        raise CliError("--date-shift-min-days must be >= 1 and <= --date-shift-max-days")
    if args.format == "jsonl":
        results = _deidentify(_read_records(args.input), args)
        n = _write_output(args.output, _deidentified_rows(results))
        log.info("deidentify: %d notes", n)
        return EXIT_OK
    from workers.cli_deidentify import (
        DeidentifyError,
        deidentify_messages,
        format_of,
        read_inputs,
        write_outputs,
    )

    try:
        inputs = read_inputs(args.input)
    except DeidentifyError as exc:
        raise (BadInputError(str(exc)) if exc.bad_input else CliError(str(exc))) from None

    class _Messages:
        total = len(inputs)

        async def run(self, pipeline: Any, bar: _Bar) -> list[tuple[str, bytes]]:
            return await deidentify_messages(
                pipeline, inputs, format_of(args.format), max(1, args.batch_size), args.skip_invalid, bar
            )

    outputs = asyncio.run(_deidentify_async(args, _Messages()))
    try:
        write_outputs(outputs, args.output, folder_input=args.input not in (None, "-") and Path(args.input).is_dir())
    except DeidentifyError as exc:
        raise CliError(str(exc)) from None
    log.info("deidentify: %d messages", len(outputs))
    return EXIT_OK


def _gold_notes(path: Path, gold: Sequence[Any]) -> list[EnrichedNote]:
    """Gold texts as notes, with the patient headers a JSONL gold file carries (the corpus writes them)."""
    from schemas import PatientHeader

    headers: dict[str, PatientHeader] = {}
    if path.is_file() and path.suffix.lower() != ".xml":
        with path.open("rb") as fh:
            for raw in fh:
                if raw.strip():
                    obj = json.loads(raw)
                    if obj.get("patient"):
                        headers[str(obj["id"])] = PatientHeader.model_validate(obj["patient"])
    return [EnrichedNote(doc.id, doc.text, headers.get(doc.id)) for doc in gold]


def cmd_eval(args: argparse.Namespace) -> int:
    _require_tooling()
    from deid_tools.eval import EvalInputError, evaluate, load_gold, load_predictions

    gold_path = Path(args.gold)
    try:
        gold = load_gold(gold_path)
        if args.pred:
            predictions = load_predictions(Path(args.pred))
            label = f"predictions from {args.pred}"
        else:
            notes = _gold_notes(gold_path, gold)
            started = time.perf_counter()
            found = _run_detection(_detection_pipeline(args), notes, args)
            elapsed = time.perf_counter() - started
            predictions = {note.note_id: spans for note, spans in zip(notes, found, strict=True)}
            chars = sum(len(d.text) for d in gold)
            label = (
                f"detectors {args.detectors} on {len(gold)} notes, {chars} chars, "
                f"{elapsed:.2f} s ({chars / max(elapsed, 1e-9):,.0f} chars/s)"
            )
    except EvalInputError as exc:
        raise CliError(str(exc)) from None
    except FileNotFoundError as exc:
        raise CliError(f"file not found: {exc.filename}") from None
    report = evaluate(gold, predictions)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(f"# {label}")
        print(report.format_table())
    return EXIT_OK


def cmd_corpus(args: argparse.Namespace) -> int:
    _require_tooling()
    from deid_tools.corpus import generate_notes, write_jsonl

    out = _open_output(args.output)
    bar = _Bar(args.n, f"corpus {args.split}", args.progress)
    try:
        def counted(notes: Any) -> Any:
            for note in notes:
                bar.update(1)
                yield note

        n = write_jsonl(counted(generate_notes(args.split, args.n, seed=args.seed)), out)
    finally:
        bar.close()
        if out is not sys.stdout:
            out.close()
    print(f"wrote {n} {args.split} notes", file=sys.stderr)
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    """The service on embedded defaults (broker, worker, samples); ``--offline`` skips the broker."""
    _require_tooling()  # both paths send synthetic corpus notes; --offline also scores them
    if not args.offline:
        from workers.demo import DemoOptions, run_demo

        show = sys.stderr.isatty() if args.progress is None else args.progress
        try:
            return run_demo(DemoOptions(args.n, args.seed, args.store, args.triton_url, Path(args.out_dir), show))
        except RuntimeError as exc:
            raise CliError(str(exc)) from None
    return _offline_demo(args)


def _offline_demo(args: argparse.Namespace) -> int:
    """De-identify a few synthetic notes in this process and score them against their gold spans."""
    from deid_tools.corpus import generate_notes

    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    gold = list(generate_notes("test", args.n, seed=args.seed))
    records = [NoteRecord(id=g.id, text=g.text, patient=g.patient) for g in gold]
    demo_args = argparse.Namespace(
        secret_file=None, store=args.store, date_shift_min_days=1, date_shift_max_days=365, policy="surrogate",
        progress=args.progress, detectors=",".join(DEFAULT_DETECTORS), triton_url=args.triton_url,
        tagger_model_dir=None, batch_size=32,
    )
    started = time.perf_counter()
    results = _deidentify(records, demo_args)
    elapsed = time.perf_counter() - started
    out_path = out_dir / "deidentified.jsonl"
    _write_output(str(out_path), _deidentified_rows(results))
    by_type = Counter(s.type.value for r in results for s in r.spans)
    chars = sum(len(r.text) for r in records)
    print(f"de-identified {len(results)} synthetic notes ({chars} chars) in {elapsed:.2f} s -> {out_path}")
    print("replaced spans by type: " + ", ".join(f"{t}={c}" for t, c in by_type.most_common()))
    from deid_tools.eval import GoldDoc, evaluate

    report = evaluate([GoldDoc(g.id, g.text, g.spans) for g in gold], {r.note_id: list(r.spans) for r in results})
    for row in ("ALL", "HIPAA"):
        m = report.metric("token", row)
        print(f"against the synthetic gold, {row:5s} PHI tokens: recall {m.recall:.3f}, precision {m.precision:.3f}")
    sample = results[0]
    print(f"\n--- first de-identified note ({sample.note_id}), first 600 chars ---\n{sample.text[:600]}")
    return EXIT_OK


def cmd_train(args: argparse.Namespace) -> int:
    """Train the tagger on the synthetic corpus, evaluate on held-out families, write weights + model card."""
    _require_tooling()
    import torch
    from tqdm import tqdm

    from deid_core.tagger import default_model_dir
    from deid_tools.train.job import JobConfig, run_training_job
    from deid_tools.train.train import TrainConfig

    torch.set_num_threads(args.threads)
    out_dir = Path(args.out) if args.out else default_model_dir()
    config = JobConfig(
        train_n=args.train_n, dev_n=args.dev_n, test_n=args.test_n, corpus_seed=args.corpus_seed,
        train=TrainConfig(
            epochs=args.epochs, patience=args.patience, seed=args.seed, threads=args.threads, lexicon=args.lexicon
        ),
        train_gold=args.train_gold, dev_gold=args.dev_gold, test_gold=args.test_gold,
    )
    show = sys.stderr.isatty() if args.progress is None else args.progress
    progress = (lambda it, **kw: tqdm(it, file=sys.stderr, **kw)) if show else (lambda it, **kw: it)
    metrics = run_training_job(out_dir, config, progress=progress)
    test = metrics["eval"]["test"]  # type: ignore[index]
    print(f"wrote {out_dir} (weights, vocab, tagger.json, MODEL_CARD.md, metrics.json)")
    for who in ("tagger", "pipeline"):
        strict = test[who]["strict"]["ALL"]
        hipaa = test[who]["token"]["HIPAA"]
        print(f"test {who:8s}: strict ALL F1 {strict['f1']:.3f}; HIPAA token recall {hipaa['recall']:.3f}")
    return EXIT_OK


def cmd_worker(args: argparse.Namespace) -> int:
    """Run a streaming worker (faust) against the configured broker, tagger and mapping store."""
    # Before torch loads: oneDNN's primitive cache keeps a compiled kernel per input shape (up to 1,024),
    # and note lengths vary, so a long-running in-process tagger would grow by ~90 MB before levelling
    # off (bench/soak.py); without the cache throughput measured the same. An explicit value wins.
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "0")
    from pydantic import ValidationError

    from workers.security import (
        ConfigurationError,
        aiokafka_client_options,
        load_keyring,
        redis_options,
        settings_error_message,
    )
    from workers.settings import WorkerSettings

    overrides = {k: v for k, v in {
        "kafka_bootstrap": args.kafka_bootstrap, "triton_url": args.triton_url, "store": args.store,
        "secret_file": args.secret_file, "web_port": args.web_port,
    }.items() if v is not None}
    if args.settings_file is not None and not Path(args.settings_file).is_file():
        raise CliError(f"--settings-file {args.settings_file} is not a readable file")
    # Settings, secret files and the production checks, before anything connects (or faust is imported).
    try:
        settings = WorkerSettings(_env_file=args.settings_file, **overrides)  # type: ignore[call-arg]
        keyring = load_keyring(settings)
        redis_options(settings)
        aiokafka_client_options(settings)  # reads the SASL password file and loads the TLS files
    except ValidationError as exc:
        raise CliError(settings_error_message(exc)) from None
    except ConfigurationError as exc:
        raise CliError(str(exc)) from None

    import faust

    from workers.compose import build_app

    try:
        app = build_app(settings, keyring=keyring)
    except ValidationError as exc:
        raise CliError(settings_error_message(exc)) from None
    except (ConfigurationError, ValueError) as exc:
        raise CliError(str(exc)) from None
    worker = faust.Worker(app, loglevel=args.loglevel)
    worker.execute_from_commandline()
    return EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    """The HTTP service (workers/serve.py) on uvicorn; settings from DEID_* variables and --settings-file."""
    if args.settings_file is not None and not Path(args.settings_file).is_file():
        raise CliError(f"--settings-file {args.settings_file} is not a readable file")
    from workers.serve import ConfigurationError, run_server

    try:
        return run_server(args.host, args.port, args.settings_file)
    except ConfigurationError as exc:
        raise CliError(str(exc)) from None


# ------------------------------------------------------------------------------------------------ parser


def build_parser() -> argparse.ArgumentParser:
    from workers.cli_deidentify import add_arguments as add_deidentify_arguments

    parser = argparse.ArgumentParser(
        prog="deid",
        description="De-identify clinical notes: detect PHI (i2b2 2014 types) and replace it with consistent surrogates.",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output on stderr (ids and counts only)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add_io(p: argparse.ArgumentParser) -> None:
        p.add_argument("-i", "--input", help="JSONL input {id, text, patient?}, or with --format a message file or folder (default: stdin)")
        p.add_argument("-o", "--output", help="JSONL output, or with --format a file or folder (default: stdout)")
        p.add_argument(
            "--policy", default="surrogate",
            help="de-identification policy: surrogate, safe-harbor, limited-data-set, or a YAML file (default: %(default)s; see docs/policy.md)",
        )  # fmt: skip
        add_detectors(p)
        add_progress(p)

    def add_detectors(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--detectors",
            default=",".join(DEFAULT_DETECTORS),
            help=f"comma-separated detectors among {', '.join(KNOWN_DETECTORS)} (default: %(default)s)",
        )
        p.add_argument("--triton-url", help="run the tagger on a Triton server at this gRPC address (host:port) instead of in-process")
        p.add_argument("--tagger-model-dir", help="weights for the in-process tagger (default: the shipped model)")
        p.add_argument("--batch-size", type=int, default=32, help="notes per tagger call (default: %(default)s)")

    def add_progress(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--progress", action=argparse.BooleanOptionalAction, default=None,
            help="show a progress bar on stderr (default: when stderr is a terminal)",
        )

    p = sub.add_parser("detect", help="find PHI spans; writes {id, spans:[{start,end,type}]} per input line")
    add_io(p)
    p.set_defaults(func=cmd_detect)

    p = sub.add_parser("deidentify", help="replace PHI with consistent surrogates; writes {id, text, spans}")
    add_io(p)
    p.add_argument("--store", default="memory", help="'memory' or a Redis URL such as redis://localhost:6379/0 (default: memory)")
    p.add_argument("--secret-file", help="file holding the HMAC secret for mapping keys (default: a development key, with a warning)")
    p.add_argument("--date-shift-min-days", type=int, default=1, help="smallest per-patient date shift (default: %(default)s)")
    p.add_argument("--date-shift-max-days", type=int, default=365, help="largest per-patient date shift (default: %(default)s)")
    add_deidentify_arguments(p)
    p.set_defaults(func=cmd_deidentify)

    p = sub.add_parser("eval", help="score predictions (or the detectors themselves) against gold annotations")
    p.add_argument("--gold", required=True, help="gold JSONL {id, text, spans}, an i2b2 2014 XML file, or a directory of them")
    p.add_argument("--pred", help="predictions JSONL from 'deid detect' or 'deid deidentify'; omitted: run --detectors on the gold texts")
    add_detectors(p)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    add_progress(p)
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("corpus", help="generate synthetic labelled notes (train/dev/test split by template family)")
    p.add_argument("--split", choices=["train", "dev", "test"], default="test")
    p.add_argument("-n", type=int, default=200, help="number of notes (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("-o", "--output", help="JSONL output (default: stdout)")
    add_progress(p)
    p.set_defaults(func=cmd_corpus)

    p = sub.add_parser("train", help="train the BiLSTM-CRF tagger on the synthetic corpus and write a model card")
    p.add_argument("--out", help="artifact directory (default: the shipped model directory in triton_models/)")
    p.add_argument("--train-n", type=int, default=3000, help="training notes (default: %(default)s)")
    p.add_argument("--dev-n", type=int, default=300, help="dev notes for early stopping (default: %(default)s)")
    p.add_argument("--test-n", type=int, default=400, help="held-out test notes for the model card (default: %(default)s)")
    p.add_argument("--corpus-seed", type=int, default=0)
    p.add_argument("--seed", type=int, default=13, help="model initialisation and batch order seed")
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--patience", type=int, default=4, help="epochs without dev F1 gain before stopping")
    p.add_argument("--threads", type=int, default=2, help="torch CPU threads (default: %(default)s)")
    p.add_argument(
        "--lexicon", action=argparse.BooleanOptionalAction, default=True,
        help="give the model the lexicons' token classes (names, places, ordinary words) as input (default: on)",
    )
    for split in ("train", "dev", "test"):
        p.add_argument(
            f"--{split}-gold",
            help=f"{split} notes from your own gold files (JSONL, or i2b2 2006/2014 XML file or directory) instead of the synthetic corpus",
        )
    add_progress(p)
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("worker", help="run a streaming worker (settings from DEID_* environment variables)")
    p.add_argument("--kafka-bootstrap", help="broker host:port (DEID_KAFKA_BOOTSTRAP)")
    p.add_argument("--triton-url", help="Triton gRPC host:port; unset = in-process tagger (DEID_TRITON_URL)")
    p.add_argument("--store", help="'memory' or a redis:// URL (DEID_STORE)")
    p.add_argument("--secret-file", help="HMAC secret file (DEID_SECRET_FILE)")
    p.add_argument("--web-port", type=int, help="metrics/health port (DEID_WEB_PORT)")
    p.add_argument("--settings-file", help="a file of DEID_*=value lines; the environment overrides it")
    p.add_argument("--loglevel", default="warning", help="faust log level (default: %(default)s)")
    p.set_defaults(func=cmd_worker)

    p = sub.add_parser("serve", help="run the HTTP service: /v1/detect, /v1/deidentify, /v1/hl7, /fhir/$de-identify")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
    p.add_argument("--port", type=int, default=8080, help="port to listen on (default: %(default)s)")
    p.add_argument("--settings-file", help="a file of DEID_*=value lines; the environment overrides it")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser(
        "demo", help="run the service on embedded defaults: local broker, a worker, HL7/FHIR/JSON samples; summarise"
    )
    p.add_argument("--offline", action="store_true", help="no broker or worker: de-identify synthetic notes in-process and score them")
    p.add_argument("-n", type=int, default=20, help="number of sample notes (default: %(default)s)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--store", default="memory", help="'memory' or a Redis URL (default: memory)")
    p.add_argument("--triton-url", help="run the tagger on a Triton server (gRPC host:port) instead of in-process")
    p.add_argument("--out-dir", default="out/demo", help="where results are written (default: %(default)s)")
    add_progress(p)
    p.set_defaults(func=cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.WARNING - 10 * min(args.verbose, 2),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        return int(args.func(args))
    except InputError as exc:
        print(f"deid {args.command}: error: {exc}; no output was written", file=sys.stderr)
        return EXIT_BAD_INPUT
    except CliError as exc:
        print(f"deid {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT if isinstance(exc, BadInputError) else EXIT_FAILURE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
