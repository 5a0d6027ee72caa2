"""``detect_in_processes``: a whole input's detection spread over forked worker processes, for the CLI.

Invariant: the spans are exactly those of a sequential run with the same ``batch_size`` (one tagger call
per batch of ``batch_size`` notes, in input order), because the tagger's floats depend on what a call
holds and nothing else here does.

The work is cut into tasks of two kinds, so that the cores stay busy to the end:

- a **tag** task runs the tagger on one batch (about half of all CPU time, in large pieces: a larger
  batch amortises the recurrence's fixed cost per step);
- a **local** task runs the local detectors on a few notes (small pieces).

All tag tasks are queued ahead of all local tasks, so the tagging is over by about half-way and the rest
of the run is small tasks that the workers share out evenly, instead of a last large batch that keeps one
core busy while the other waits. The parent combines each note (hygiene, type vote, merge) as soon as
both its tagger and its local spans are back.

Workers inherit the loaded pipeline and the notes through fork (weights loaded once); what crosses a
process boundary is note ranges and spans packed as tuples.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import TYPE_CHECKING

from schemas import EnrichedNote, PhiType, Span

if TYPE_CHECKING:
    from deid_core.pipeline import DetectionPipeline

LOCAL_NOTES = 8
"""Notes per local task: small enough to even out the end of a run, large enough that the per-task
overhead (a pickle each way, well under a millisecond) stays far below the work (several ms a note)."""

_Packed = tuple[tuple[int, int, str, float, tuple[str, ...], str], ...]
"""A note's spans as plain tuples: much cheaper to pickle than the dataclasses."""


def _pack(spans: Sequence[Span]) -> _Packed:
    return tuple(
        (s.start, s.end, s.type.value, s.score, tuple(sorted(s.sources)), s.explanation) for s in spans
    )


def _unpack(packed: _Packed) -> list[Span]:
    return [Span(a, b, PhiType(t), score, frozenset(src), why) for a, b, t, score, src, why in packed]


# Set in each forked worker by _init_worker: the parent's objects, inherited, never pickled.
_worker_pipeline: DetectionPipeline | None = None
_worker_notes: Sequence[EnrichedNote] = ()


def _init_worker(pipeline: DetectionPipeline, notes: Sequence[EnrichedNote], threads: int) -> None:
    from deid_core.tagger.threads import limit_threads

    global _worker_pipeline, _worker_notes
    limit_threads(threads)
    _worker_pipeline, _worker_notes = pipeline, notes


def _tag_in_worker(start: int, stop: int) -> list[_Packed]:
    from deid_core.pipeline import LocalTagger

    assert _worker_pipeline is not None and isinstance(_worker_pipeline.tagger, LocalTagger)
    return [_pack(s) for s in _worker_pipeline.tagger.tag_sync([n.text for n in _worker_notes[start:stop]])]


def _local_in_worker(start: int, stop: int) -> list[_Packed]:
    assert _worker_pipeline is not None
    return [_pack(_worker_pipeline.detect_local(n)) for n in _worker_notes[start:stop]]


def can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def detect_in_processes(
    pipeline: DetectionPipeline,
    notes: Sequence[EnrichedNote],
    batch_size: int,
    workers: int,
    progress: Callable[[int], object] | None = None,
) -> list[list[Span]]:
    """Every note's spans, in input order, computed on ``workers`` forked processes (see the module
    docstring). Needs ``pipeline.fork_safe`` and the fork start method. The parent schedules and
    combines; ``progress`` is called with the number of notes each time some are complete."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from deid_core.tagger.threads import usable_cpus

    if not pipeline.fork_safe:
        raise ValueError("this pipeline cannot run in forked processes")
    bounds = [(i, min(i + batch_size, len(notes))) for i in range(0, len(notes), batch_size)]
    # Each worker computes on its share of the cores (deid_core.tagger.threads).
    threads = max(1, usable_cpus() // max(1, workers))
    found: list[list[Span] | None] = [None] * len(notes)
    tagged: list[_Packed | None] = [() if pipeline.tagger is None else None] * len(notes)
    local: list[_Packed | None] = [None] * len(notes)
    # ProcessPoolExecutor rather than multiprocessing.Pool: a worker that dies (killed, out of memory)
    # raises BrokenProcessPool here instead of leaving the parent waiting forever.
    with ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("fork"), initializer=_init_worker,
        initargs=(pipeline, notes, threads),
    ) as pool:  # fmt: skip
        tasks: dict[Future[list[_Packed]], tuple[list[_Packed | None], int]] = {}
        if pipeline.tagger is not None:
            for start, stop in bounds:
                tasks[pool.submit(_tag_in_worker, start, stop)] = (tagged, start)
        for start in range(0, len(notes), LOCAL_NOTES):
            tasks[pool.submit(_local_in_worker, start, min(start + LOCAL_NOTES, len(notes)))] = (local, start)
        pending = set(tasks)
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    into, start = tasks.pop(future)
                    packed = future.result()
                    into[start : start + len(packed)] = packed
                    ready = 0
                    for i in range(start, start + len(packed)):
                        t, lo = tagged[i], local[i]
                        if t is not None and lo is not None:
                            found[i] = pipeline.combine(notes[i], _unpack(lo), _unpack(t))
                            ready += 1
                    if ready and progress is not None:
                        progress(ready)
        except BaseException:
            # Leaving the block would otherwise wait for every task still queued.
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    assert all(s is not None for s in found)
    return found  # type: ignore[return-value]
