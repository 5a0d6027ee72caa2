"""DetectionPipeline.combine: no final span starts or ends with whitespace (a merge remainder such as
"Finn " before a rule's age would take the space into its surrogate)."""

from __future__ import annotations

from dataclasses import dataclass

from deid_core.pipeline import DetectionPipeline
from schemas import EnrichedNote, PhiType, Span

TEXT = "voices (Finn 7, Orla 4) today"


@dataclass(frozen=True)
class _Fixed:
    spans: tuple[Span, ...]
    name: str = "fixed"

    def detect(self, note: EnrichedNote) -> list[Span]:
        return list(self.spans)


def _at(value: str, type_: PhiType, source: str) -> Span:
    start = TEXT.index(value)
    return Span(start, start + len(value), type_, 0.7, frozenset({source}))


def test_a_remainder_loses_its_edge_space() -> None:
    found = _Fixed((_at("Finn 7", PhiType.DEPARTMENT, "lexicon"), _at("7", PhiType.AGE, "rules")))
    spans = DetectionPipeline([found], None).detect(EnrichedNote("n", TEXT))
    assert [(TEXT[s.start : s.end], s.type) for s in spans] == [("Finn", PhiType.DEPARTMENT), ("7", PhiType.AGE)]
