"""The hand-written evaluation set (eval/handwritten): gold.jsonl is current, large enough and well formed."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.handwritten_sets import assert_well_formed, build_module
from tests.handwritten_sets import gold_records as handwritten_gold

ROOT = Path(__file__).resolve().parents[2]
HANDWRITTEN = ROOT / "eval" / "handwritten"
GOLD = HANDWRITTEN / "gold.jsonl"


def gold_records() -> tuple[dict[str, object], ...]:
    return handwritten_gold(GOLD)


def test_gold_matches_the_notes() -> None:
    build = build_module()
    expected = build.render_jsonl(build.build_records(HANDWRITTEN / "notes"))
    assert GOLD.read_text(encoding="utf-8") == expected, "gold.jsonl is stale: run python eval/handwritten/build.py"


def test_size() -> None:
    records = gold_records()
    assert len(records) >= 40
    assert sum(len(r["spans"]) for r in records) >= 1200  # type: ignore[arg-type]


def test_records_are_well_formed() -> None:
    assert_well_formed(gold_records())


def test_variety() -> None:
    records = gold_records()
    kinds = Counter(str(r["kind"]) for r in records)
    assert len(kinds) >= 15
    types = Counter(s["type"] for r in records for s in r["spans"])  # type: ignore[union-attr]
    for needed in ("PATIENT", "DOCTOR", "HOSPITAL", "ORGANIZATION", "CITY", "AGE", "DATE", "PHONE", "PROFESSION"):
        assert types[needed] >= 20, needed


@pytest.mark.parametrize(
    "raw",
    [
        "Seen by [[Ann Lee|DOCTOR] today",  # never closed
        "Seen by Ann Lee|DOCTOR]] today",  # stray close
        "Seen by [[Ann Lee|NURSE]] today",  # unknown type
        "Seen by [[Ann Lee]] today",  # no type
        "Seen by [[ Ann Lee|DOCTOR]] today",  # outer whitespace
        "Seen by [[Ann|Lee|DOCTOR]] today",  # two separators
        "Seen by [[Ann [[Lee|DOCTOR]] today",  # nested
    ],
)
def test_malformed_markup_fails(raw: str) -> None:
    build = build_module()
    with pytest.raises(build.MarkupError):
        build.parse_note(raw, "test")


def test_parse_note_offsets() -> None:
    build = build_module()
    text, spans = build.parse_note("Spoke with [[Ximena|PATIENT]] at [[617-555-0142|PHONE]].\n", "test")
    assert text == "Spoke with Ximena at 617-555-0142."
    assert [(text[s.start:s.end], s.type) for s in spans] == [("Ximena", "PATIENT"), ("617-555-0142", "PHONE")]
