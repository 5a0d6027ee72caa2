"""The composition of the stages: detect (all detectors) -> merge -> surrogate -> render.

The same object serves the CLI, the demo and the streaming workers; it does no I/O of its own beyond
what the surrogate's MappingStore does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deid_core.detect.base import Detector
from deid_core.merge import Merger, SpanMerger
from deid_core.surrogate.engine import Surrogator
from schemas import DeidentifiedNote, EnrichedNote, Span


@dataclass(frozen=True, slots=True)
class DetectionPipeline:
    """Runs every detector on a note and merges their spans into non-overlapping typed spans."""

    detectors: Sequence[Detector]
    merger: Merger = SpanMerger()

    def detect(self, note: EnrichedNote) -> list[Span]:
        found: list[Span] = []
        for detector in self.detectors:
            found.extend(detector.detect(note))
        return self.merger.merge(found, note.text)


@dataclass(frozen=True, slots=True)
class DeidPipeline:
    detection: DetectionPipeline
    surrogator: Surrogator

    async def run_batch(self, notes: Sequence[EnrichedNote]) -> list[DeidentifiedNote]:
        results: list[DeidentifiedNote] = []
        for note in notes:
            spans = self.detection.detect(note)
            results.append(await self.surrogator.deidentify(note, spans))
        return results
