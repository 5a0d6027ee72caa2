"""Single-core time of each stage of `deid detect`'s pipeline: where a speed-up has to come from.

Runs the default pipeline (rules, header, lexicon, in-process tagger) in this process on one thread, on the
same held-out realistic notes as bench/detect_throughput.py (``--min-chars``, default 500 k), batch by
batch as the CLI does, and prints seconds per stage: the tagger per batch; each local detector, hygiene,
the type vote and the merge per note. ``--profile FILE`` also writes a cProfile dump of the timed loop
(read it with ``python -m pstats FILE``). Prints figures; asserts nothing.

    .venv/bin/python bench/detect_stages.py [--min-chars 500000] [--batch-size 128] [--profile out.prof]
"""

from __future__ import annotations

import argparse
import cProfile
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))

T = TypeVar("T")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-chars", type=int, default=500_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch-size", type=int, default=128, help="notes per tagger call, as `deid detect` (default: %(default)s)")
    parser.add_argument("--profile", help="write a cProfile dump of the timed loop here")
    args = parser.parse_args()

    from deid_core.tagger.threads import limit_threads

    limit_threads(1)  # as each `deid detect` worker process runs: one core, one thread
    from detect_throughput import realistic_notes

    from schemas import EnrichedNote, NoteRecord
    from workers.cli.detection import detection_pipeline
    from workers.cli.parser import build_parser

    notes = [EnrichedNote.from_record(NoteRecord.model_validate(r)) for r in realistic_notes(args.min_chars, args.seed)]
    pipeline = detection_pipeline(build_parser().parse_args(["detect", "-i", "-", "-o", "-"]))
    tagger = pipeline.tagger
    assert tagger is not None and hasattr(tagger, "tag_sync"), "needs the in-process tagger"
    seconds: dict[str, float] = {}

    def timed(name: str, call: Callable[[], T]) -> T:
        started = time.perf_counter()
        result = call()
        seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - started
        return result

    profile = cProfile.Profile() if args.profile else None
    if profile is not None:
        profile.enable()
    for i in range(0, len(notes), args.batch_size):
        batch = notes[i : i + args.batch_size]
        tagged = timed("tagger", lambda batch=batch: tagger.tag_sync([n.text for n in batch]))
        for note, extra in zip(batch, tagged, strict=True):
            local = []
            for detector in pipeline.detectors:
                local.extend(timed(f"detector {detector.name}", lambda d=detector, n=note: d.detect(n)))
            clean = timed("hygiene", lambda n=note, f=local, x=extra: pipeline.hygiene.clean(n.text, [*f, *x]))
            voted = timed("type vote", lambda n=note, c=clean: pipeline.type_vote.vote(n.text, c))
            timed("merge", lambda n=note, v=voted: pipeline.merger.merge(v, n.text))
    if profile is not None:
        profile.disable()
        profile.dump_stats(args.profile)
    chars = sum(len(n.text) for n in notes)
    total = sum(seconds.values())
    print(f"{len(notes)} notes, {chars:,} chars; one thread; batches of {args.batch_size}")
    for name, s in sorted(seconds.items(), key=lambda kv: -kv[1]):
        print(f"  {name:<20} {s:6.2f} s  {s / total:5.1%}")
    print(f"  {'total':<20} {total:6.2f} s  ({chars / total:,.0f} chars/s on one core)")


if __name__ == "__main__":
    main()
