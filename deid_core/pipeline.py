"""The composition of the stages: detect (local detectors + one batched tagger call) -> merge ->
surrogate -> render.

The same objects serve the CLI, the demo and the streaming workers; they do no I/O of their own beyond
the tagger call and what the surrogate's MappingStore does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from deid_core.detect.base import Detector
from deid_core.merge import Merger, SpanMerger
from deid_core.surrogate.engine import Surrogator
from deid_core.tagger.base import Tagger
from schemas import DeidentifiedNote, EnrichedNote, Span


@dataclass(frozen=True, slots=True)
class DetectionPipeline:
    """Runs the local detectors per note and the tagger once per batch, then merges all spans."""

    detectors: Sequence[Detector]
    tagger: Tagger | None = None
    merger: Merger = field(default_factory=SpanMerger)

    def detect_local(self, note: EnrichedNote) -> list[Span]:
        found: list[Span] = []
        for detector in self.detectors:
            found.extend(detector.detect(note))
        return found

    def detect(self, note: EnrichedNote) -> list[Span]:
        """Local detectors only (no tagger): for callers without an event loop."""
        return self.merger.merge(self.detect_local(note), note.text)

    async def detect_batch(self, notes: Sequence[EnrichedNote]) -> list[list[Span]]:
        tagged: list[list[Span]] = [[] for _ in notes]
        if self.tagger is not None and notes:
            tagged = await self.tagger.tag([n.text for n in notes])
        return [
            self.merger.merge(self.detect_local(note) + extra, note.text) for note, extra in zip(notes, tagged, strict=True)
        ]

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
