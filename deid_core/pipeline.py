"""The composition of the stages: detect (local detectors + one batched tagger call) -> merge ->
surrogate -> render.

The same objects serve the CLI, the demo and the streaming workers; they do no I/O of their own beyond
the tagger call and what the surrogate's MappingStore does. ``deid_core.forked.detect_in_processes``
spreads a whole input over forked worker processes, for the CLI.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from deid_core.detect.base import Detector
from deid_core.hygiene import SpanHygiene, build_hygiene
from deid_core.merge import Merger, SpanMerger
from deid_core.tagger.base import Tagger
from deid_core.typevote import TypeVote, build_type_vote
from schemas import DeidentifiedNote, EnrichedNote, Span

if TYPE_CHECKING:
    # Only for annotations: importing the surrogate engine pulls in faker and redis, about 0.2 s that
    # the detect path does not need.
    from deid_core.surrogate.engine import Surrogator


@runtime_checkable
class LocalTagger(Protocol):
    """A tagger that computes in this process (``InProcessTagger``) and so can be called synchronously."""

    fork_safe: bool

    def tag_sync(self, texts: Sequence[str]) -> list[list[Span]]: ...


@dataclass(frozen=True, slots=True)
class DetectionPipeline:
    """Runs the local detectors per note and the tagger once per batch, then merges all spans."""

    detectors: Sequence[Detector]
    tagger: Tagger | None = None
    merger: Merger = field(default_factory=SpanMerger)
    hygiene: SpanHygiene = field(default_factory=build_hygiene)
    type_vote: TypeVote = field(default_factory=build_type_vote)

    def detect_local(self, note: EnrichedNote) -> list[Span]:
        found: list[Span] = []
        for detector in self.detectors:
            found.extend(detector.detect(note))
        return found

    def detect(self, note: EnrichedNote) -> list[Span]:
        """Local detectors only (no tagger): for callers without an event loop."""
        return self.combine(note, self.detect_local(note), ())

    def combine(self, note: EnrichedNote, local: Sequence[Span], tagged: Sequence[Span]) -> list[Span]:
        """The note's final spans from its local detectors' and the tagger's: hygiene, type vote, merge,
        and no whitespace, comma or semicolon at a span's edges (a merge remainder such as ``"Finn "`` before a rule's age
        would take the space into its surrogate: ``"Ophthalmology7"``)."""
        clean = self.hygiene.clean(note.text, [*local, *tagged])
        return _without_edge_marks(note.text, self.merger.merge(self.type_vote.vote(note.text, clean), note.text))

    def _merge_all(self, notes: Sequence[EnrichedNote], local: Sequence[list[Span]], tagged: Sequence[list[Span]]) -> list[list[Span]]:
        return [self.combine(note, found, extra) for note, found, extra in zip(notes, local, tagged, strict=True)]

    async def detect_batch(self, notes: Sequence[EnrichedNote]) -> list[list[Span]]:
        if self.tagger is None or not notes:
            return [self.detect(note) for note in notes]
        texts = [n.text for n in notes]
        if isinstance(self.tagger, LocalTagger):
            # Both are CPU work in this process; running them side by side would only trade the GIL.
            tagged = await self.tagger.tag(texts)
            return self._merge_all(notes, [self.detect_local(n) for n in notes], tagged)
        # A remote tagger (Triton) computes elsewhere: the local detectors run on a thread meanwhile, so
        # the batch costs max(network + model, local) instead of the sum.
        import asyncio

        remote = asyncio.ensure_future(self.tagger.tag(texts))
        try:
            local = await asyncio.to_thread(lambda: [self.detect_local(n) for n in notes])
        except BaseException:
            remote.cancel()
            await asyncio.gather(remote, return_exceptions=True)
            raise
        return self._merge_all(notes, local, await remote)

    def detect_batch_sync(self, notes: Sequence[EnrichedNote]) -> list[list[Span]]:
        """``detect_batch`` without an event loop; only for no tagger or a ``LocalTagger``."""
        tagged: list[list[Span]] = [[] for _ in notes]
        if self.tagger is not None and notes:
            if not isinstance(self.tagger, LocalTagger):
                raise TypeError("detect_batch_sync needs an in-process tagger")
            tagged = self.tagger.tag_sync([n.text for n in notes])
        return self._merge_all(notes, [self.detect_local(n) for n in notes], tagged)

    @property
    def fork_safe(self) -> bool:
        """Whether forked worker processes can run this pipeline: no network client (gRPC channels do
        not survive a fork) and no GPU (neither does a CUDA context)."""
        return self.tagger is None or (isinstance(self.tagger, LocalTagger) and self.tagger.fork_safe)

    async def close(self) -> None:
        if self.tagger is not None:
            await self.tagger.close()


@dataclass(frozen=True, slots=True)
class DeidPipeline:
    detection: DetectionPipeline
    surrogator: Surrogator

    async def run_batch(self, notes: Sequence[EnrichedNote]) -> list[DeidentifiedNote]:
        spans = await self.detection.detect_batch(notes)
        return [await self.surrogator.deidentify(note, s) for note, s in zip(notes, spans, strict=True)]


def _without_edge_marks(text: str, spans: list[Span]) -> list[Span]:
    out = []
    for s in spans:
        value = text[s.start : s.end]
        core = value.strip().strip(",;").strip()  # ", Jo Lin": a list's comma is no part of a name
        if core == value:
            out.append(s)
        elif core:  # whitespace is never PHI; a span of nothing else would be no span at all
            start = s.start + value.index(core)
            out.append(replace(s, start=start, end=start + len(core)))
    return out
