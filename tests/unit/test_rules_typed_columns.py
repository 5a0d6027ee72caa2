"""A table's header types its cells: month/day under ``date``, codes under ``bed`` or ``chair``.
Examples invented for these tests."""

from __future__ import annotations

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def typed(text: str) -> list[tuple[str, str]]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return [(text[s.start : s.end], s.type.value) for s in spans if s.type in (PhiType.DATE, PhiType.ROOM, PhiType.AGE)]


def test_dates_and_rooms_under_their_headers() -> None:
    text = (
        "CHAIR | IN    | REGIMEN | RN\nC3    | 07:45 | FOLFOX  | vy\nISO-2 | 09:00 | AC      | An\n\n"
        "Date      | Modality     | Init\n3/2       | TM + NuStep  | DM\n3/4 (am)  | TM + arm erg | DM\n\n"
        "| bed   | patient |\n| ED 7  | x |\n| hall 2| y |\n\n| name | age | note |\n| Ky | 6   | ECC |\n| Doris | 88 F | x |\n"
    )
    assert typed(text) == [
        ("C3", "ROOM"), ("ISO-2", "ROOM"), ("3/2", "DATE"), ("3/4", "DATE"), ("7", "ROOM"), ("2", "ROOM"), ("6", "AGE"), ("88", "AGE"),
    ]


def test_the_same_values_under_other_headers_are_not() -> None:
    text = "| score | ratio | station | dose |\n| 3/10 | 2/3 | US-1 | 40 |\n| 6/10 | 1/2 | sink D2 | 20 |\n"
    assert typed(text) == []
