"""The hand-written evaluation set (eval/handwritten): gold.jsonl is current, large enough and well formed."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from schemas import PhiType

ROOT = Path(__file__).resolve().parents[2]
HANDWRITTEN = ROOT / "eval" / "handwritten"
GOLD = HANDWRITTEN / "gold.jsonl"


@cache
def build_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("handwritten_build", HANDWRITTEN / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


@cache
def gold_records() -> tuple[dict[str, object], ...]:
    with GOLD.open(encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


def test_gold_matches_the_notes() -> None:
    build = build_module()
    expected = build.render_jsonl(build.build_records(HANDWRITTEN / "notes"))
    assert GOLD.read_text(encoding="utf-8") == expected, "gold.jsonl is stale: run python eval/handwritten/build.py"


def test_size() -> None:
    records = gold_records()
    assert len(records) >= 40
    assert sum(len(r["spans"]) for r in records) >= 1200  # type: ignore[arg-type]


def test_records_are_well_formed() -> None:
    records = gold_records()
    ids = [r["id"] for r in records]
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)
    valid = {t.value for t in PhiType}
    for record in records:
        assert set(record) == {"id", "kind", "text", "spans"}
        text = record["text"]
        assert isinstance(text, str) and text.strip()
        spans = record["spans"]
        assert isinstance(spans, list) and spans
        previous_end = 0
        for span in spans:
            start, end, type_ = span["start"], span["end"], span["type"]
            assert type_ in valid, (record["id"], type_)
            assert 0 <= start < end <= len(text), (record["id"], span)
            assert start >= previous_end, f"{record['id']}: overlapping or unsorted span {span}"
            previous_end = end
            surface = text[start:end]
            assert surface.strip(), (record["id"], span)
            assert surface == surface.strip(), f"{record['id']}: outer whitespace in {surface!r}"


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
