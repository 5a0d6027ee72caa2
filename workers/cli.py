"""The ``deid`` command line: detect, deidentify, eval, corpus and demo.

Input records are JSONL ``{"id", "text", "patient"?}``. All input is read and validated before any
output is written, so a bad line means a clear error on stderr, a non-zero exit and no partial output.
Nothing here prints note text or PHI to stderr or logs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from deid_core.detect.registry import DEFAULT_DETECTORS, DETECTOR_FACTORIES, build_detectors, parse_detector_names
from deid_core.pipeline import DetectionPipeline
from schemas import DeidentifiedNote, EnrichedNote, NoteRecord, Span
from schemas.jsonl import InputError, read_note_records

log = logging.getLogger("deid.cli")

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1


class CliError(Exception):
    """An error whose message is safe and sufficient to show the user."""


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


def _progress(iterable: Any, total: int, desc: str, enabled: bool | None) -> Any:
    show = sys.stderr.isatty() if enabled is None else enabled
    if not show:
        return iterable
    from tqdm import tqdm

    return tqdm(iterable, total=total, desc=desc, unit="note", file=sys.stderr)


def _spans_json(spans: Sequence[Span]) -> list[dict[str, object]]:
    return [s.to_json() for s in spans]


def _detection_pipeline(detectors: str) -> DetectionPipeline:
    try:
        names = parse_detector_names(detectors)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    return DetectionPipeline(build_detectors(names))


def _write_jsonl(out: IO[str], rows: Any) -> int:
    n = 0
    for row in rows:
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
        n += 1
    out.flush()
    return n


# --------------------------------------------------------------------------------------------- commands


def cmd_detect(args: argparse.Namespace) -> int:
    records = _read_records(args.input)
    pipeline = _detection_pipeline(args.detectors)
    out = _open_output(args.output)
    try:
        rows = (
            {"id": r.id, "spans": _spans_json(pipeline.detect(EnrichedNote.from_record(r)))}
            for r in _progress(records, len(records), "detect", args.progress)
        )
        n = _write_jsonl(out, rows)
    finally:
        if out is not sys.stdout:
            out.close()
    log.info("detect: %d notes", n)
    return EXIT_OK


def _build_store(spec: str) -> Any:
    from deid_core.surrogate.store import InMemoryMappingStore, RedisMappingStore

    if spec == "memory":
        return InMemoryMappingStore()
    if spec.startswith(("redis://", "rediss://", "unix://")):
        return RedisMappingStore.from_url(spec)
    raise CliError(f"unknown --store {spec!r}: use 'memory' or a redis:// URL")


async def _deidentify_all(
    records: Sequence[NoteRecord], pipeline: DetectionPipeline, args: argparse.Namespace
) -> list[DeidentifiedNote]:
    from deid_core.surrogate.engine import SurrogateConfig, Surrogator
    from deid_core.surrogate.keys import load_secret

    try:
        key = load_secret(args.secret_file)
    except OSError as exc:
        raise CliError(f"cannot read --secret-file: {exc.strerror}") from None
    store = _build_store(args.store)
    config = SurrogateConfig(date_shift_min_days=args.date_shift_min_days, date_shift_max_days=args.date_shift_max_days)
    surrogator = Surrogator(store, key, config)
    # Bounded concurrency: notes wait on the store concurrently, but a burst must not open unbounded connections.
    gate = asyncio.Semaphore(args.concurrency)
    bar = _progress(None, len(records), "deidentify", args.progress)

    async def one(record: NoteRecord) -> DeidentifiedNote:
        async with gate:
            note = EnrichedNote.from_record(record)
            result = await surrogator.deidentify(note, pipeline.detect(note))
            if bar is not None:
                bar.update(1)
            return result

    try:
        if hasattr(store, "ping"):
            await store.ping()
        return list(await asyncio.gather(*(one(r) for r in records)))
    finally:
        if bar is not None:
            bar.close()
        await store.close()


def cmd_deidentify(args: argparse.Namespace) -> int:
    if args.date_shift_min_days < 1 or args.date_shift_max_days < args.date_shift_min_days:
        raise CliError("--date-shift-min-days must be >= 1 and <= --date-shift-max-days")
    records = _read_records(args.input)
    pipeline = _detection_pipeline(args.detectors)
    try:
        results = asyncio.run(_deidentify_all(records, pipeline, args))
    except (ConnectionError, OSError) as exc:
        raise CliError(f"mapping store unavailable ({type(exc).__name__}); nothing was written") from None
    except Exception as exc:  # redis errors have their own tree; keep the message free of data
        if type(exc).__module__.startswith("redis"):
            raise CliError(f"mapping store error ({type(exc).__name__}); nothing was written") from None
        raise
    out = _open_output(args.output)
    try:
        n = _write_jsonl(out, ({"id": r.note_id, "text": r.text, "spans": _spans_json(r.spans)} for r in results))
    finally:
        if out is not sys.stdout:
            out.close()
    log.info("deidentify: %d notes", n)
    return EXIT_OK


def _gold_patients(path: Path) -> dict[str, EnrichedNote]:
    """Patient headers carried by a JSONL gold file (the corpus generator writes them)."""
    from schemas import PatientHeader

    notes: dict[str, EnrichedNote] = {}
    if path.is_dir() or path.suffix.lower() == ".xml":
        return notes
    with path.open("rb") as fh:
        for raw in fh:
            if not raw.strip():
                continue
            obj = json.loads(raw)
            patient = obj.get("patient")
            notes[obj["id"]] = EnrichedNote(
                obj["id"], obj["text"], PatientHeader.model_validate(patient) if patient else None
            )
    return notes


def cmd_eval(args: argparse.Namespace) -> int:
    from deid_core.eval import EvalInputError, evaluate, load_gold, load_predictions

    gold_path = Path(args.gold)
    try:
        gold = load_gold(gold_path)
        if args.pred:
            predictions = load_predictions(Path(args.pred))
            label = f"predictions from {args.pred}"
        else:
            pipeline = _detection_pipeline(args.detectors)
            with_headers = _gold_patients(gold_path)
            started = time.perf_counter()
            predictions = {}
            for doc in _progress(gold, len(gold), "detect", args.progress):
                note = with_headers.get(doc.id) or EnrichedNote(doc.id, doc.text)
                predictions[doc.id] = pipeline.detect(note)
            elapsed = time.perf_counter() - started
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
    from deid_core.corpus import generate_notes, write_jsonl

    out = _open_output(args.output)
    try:
        notes = generate_notes(args.split, args.n, seed=args.seed)
        n = write_jsonl(_progress(notes, args.n, f"corpus {args.split}", args.progress), out)
    finally:
        if out is not sys.stdout:
            out.close()
    print(f"wrote {n} {args.split} notes", file=sys.stderr)
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    """De-identify a few synthetic notes on embedded defaults and summarise what was replaced."""
    from deid_core.corpus import generate_notes

    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    gold = list(generate_notes("test", args.n, seed=args.seed))
    records = [NoteRecord(id=g.id, text=g.text, patient=g.patient) for g in gold]
    pipeline = _detection_pipeline(",".join(DEFAULT_DETECTORS))
    demo_args = argparse.Namespace(
        secret_file=None, store=args.store, date_shift_min_days=1, date_shift_max_days=365,
        concurrency=16, progress=args.progress,
    )
    started = time.perf_counter()
    results = asyncio.run(_deidentify_all(records, pipeline, demo_args))
    elapsed = time.perf_counter() - started
    out_path = out_dir / "deidentified.jsonl"
    with out_path.open("w", encoding="utf-8") as fh:
        _write_jsonl(fh, ({"id": r.note_id, "text": r.text, "spans": _spans_json(r.spans)} for r in results))
    by_type = Counter(s.type.value for r in results for s in r.spans)
    chars = sum(len(r.text) for r in records)
    print(f"de-identified {len(results)} synthetic notes ({chars} chars) in {elapsed:.2f} s -> {out_path}")
    print("replaced spans by type: " + ", ".join(f"{t}={c}" for t, c in by_type.most_common()))
    sample = results[0]
    print(f"\n--- first de-identified note ({sample.note_id}), first 600 chars ---\n{sample.text[:600]}")
    return EXIT_OK


# ------------------------------------------------------------------------------------------------ parser


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="deid",
        description="De-identify clinical notes: detect PHI (i2b2 2014 types) and replace it with consistent surrogates.",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output on stderr (ids and counts only)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add_io(p: argparse.ArgumentParser) -> None:
        p.add_argument("-i", "--input", help="JSONL input {id, text, patient?} (default: stdin)")
        p.add_argument("-o", "--output", help="JSONL output (default: stdout)")
        p.add_argument(
            "--detectors",
            default=",".join(DEFAULT_DETECTORS),
            help=f"comma-separated detectors among {', '.join(DETECTOR_FACTORIES)} (default: %(default)s)",
        )
        add_progress(p)

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
    p.add_argument("--concurrency", type=int, default=16, help="notes processed concurrently (default: %(default)s)")
    p.set_defaults(func=cmd_deidentify)

    p = sub.add_parser("eval", help="score predictions (or the detectors themselves) against gold annotations")
    p.add_argument("--gold", required=True, help="gold JSONL {id, text, spans}, an i2b2 2014 XML file, or a directory of them")
    p.add_argument("--pred", help="predictions JSONL from 'deid detect' or 'deid deidentify'; omitted: run --detectors on the gold texts")
    p.add_argument("--detectors", default=",".join(DEFAULT_DETECTORS), help="detectors to run when --pred is omitted (default: %(default)s)")
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

    p = sub.add_parser("demo", help="de-identify sample synthetic notes on embedded defaults and summarise")
    p.add_argument("-n", type=int, default=20, help="number of sample notes (default: %(default)s)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--store", default="memory", help="'memory' or a Redis URL (default: memory)")
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
        return EXIT_FAILURE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
