"""``deid detect``: the detection pipeline of the command's options, run over all notes (several processes
where the tagger is in-process and there are several cores)."""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Sequence

from deid_core.detect.registry import TAGGER, build_detectors, parse_detector_names
from deid_core.heap import building_frozen
from deid_core.pipeline import DetectionPipeline
from deid_core.tagger.base import TaggerUnavailable
from schemas import EnrichedNote, Span
from workers.cli.common import EXIT_OK, Bar, CliError, log, read_records, spans_json, write_output


def detection_pipeline(args: argparse.Namespace) -> DetectionPipeline:
    try:
        names = parse_detector_names(args.detectors)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    # Lexicons and model tables are built without collector passes, then kept out of them (deid_core.heap).
    with building_frozen():
        tagger = None
        if TAGGER in names:
            from deid_core.tagger import build_tagger

            try:
                tagger = build_tagger(args.triton_url, args.tagger_model_dir)
            except FileNotFoundError as exc:
                raise CliError(str(exc)) from None
        return DetectionPipeline(build_detectors(names), tagger)


DETECT_WORKERS_ENV = "DEID_DETECT_WORKERS"


def detect_workers(n_tasks: int) -> int:
    """Worker processes for a detect/eval run: ``$DEID_DETECT_WORKERS``, else one per usable CPU, never
    more than there are local tasks (deid_core.forked.LOCAL_NOTES notes each; a single one is run in
    this process, where forking would cost more than it saves)."""
    from deid_core.tagger.threads import usable_cpus

    raw = os.environ.get(DETECT_WORKERS_ENV, "").strip()
    try:
        wanted = int(raw) if raw else usable_cpus()
    except ValueError:
        raise CliError(f"{DETECT_WORKERS_ENV} must be a whole number, not {raw!r}") from None
    return max(1, min(wanted, n_tasks))


async def _detect_all(
    pipeline: DetectionPipeline, notes: Sequence[EnrichedNote], batch_size: int, bar: Bar
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


def run_detection(
    pipeline: DetectionPipeline, notes: Sequence[EnrichedNote], args: argparse.Namespace
) -> list[list[Span]]:
    """Every note's spans, in input order. With an in-process tagger (or none) and several CPUs, the
    work is spread over forked worker processes, each on one core; the spans are the same as one
    process gives (deid_core.forked.detect_in_processes). A remote tagger keeps one process, whose
    local detectors overlap the server's work on each batch."""
    from deid_core.forked import LOCAL_NOTES, can_fork, detect_in_processes

    batch_size = max(1, args.batch_size)
    workers = detect_workers(-(-len(notes) // LOCAL_NOTES))
    bar = Bar(len(notes), "detect", args.progress)
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


def cmd_detect(args: argparse.Namespace) -> int:
    from deid_core.message.policy import PolicyError, load_policy
    from deid_core.message.text import reported

    try:
        policy = load_policy(args.policy)
    except PolicyError as exc:
        raise CliError(str(exc)) from None
    notes = [EnrichedNote.from_record(r) for r in read_records(args.input)]
    # Only what the policy changes is reported: Safe Harbor keeps states and ages under 90, for one.
    found = [reported(policy, s, n.text) for n, s in zip(notes, run_detection(detection_pipeline(args), notes, args), strict=True)]
    n = write_output(
        args.output, ({"id": note.note_id, "spans": spans_json(s)} for note, s in zip(notes, found, strict=True))
    )
    log.info("detect: %d notes", n)
    return EXIT_OK
