"""The hand-written development set (eval/handwritten_dev): gold.jsonl is current, large enough and well formed.

It is compiled by the test set's compiler (eval/handwritten/build.py) with ``--id-prefix hwdev``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tests.handwritten_sets import (
    assert_check_option_accepts,
    assert_gold_is_current,
    assert_ids_prefixed,
    assert_well_formed,
    build_module,
)
from tests.handwritten_sets import gold_records as handwritten_gold

ROOT = Path(__file__).resolve().parents[2]
DEV = ROOT / "eval" / "handwritten_dev"
GOLD = DEV / "gold.jsonl"
PREFIX = "hwdev"


def gold_records() -> tuple[dict[str, object], ...]:
    return handwritten_gold(GOLD)


def test_gold_matches_the_notes() -> None:
    assert_gold_is_current(DEV, PREFIX)


def test_check_option_accepts_the_dev_set() -> None:
    assert_check_option_accepts(DEV, PREFIX)


def test_size() -> None:
    records = gold_records()
    assert len(records) >= 24
    assert sum(len(r["spans"]) for r in records) >= 700  # type: ignore[arg-type]


def test_ids_use_the_dev_prefix() -> None:
    assert_ids_prefixed(gold_records(), PREFIX)


def test_records_are_well_formed() -> None:
    assert_well_formed(gold_records())


def test_every_category_is_present() -> None:
    types = Counter(s["type"] for r in gold_records() for s in r["spans"])  # type: ignore[union-attr]
    for needed in ("PATIENT", "DOCTOR", "PROFESSION", "HOSPITAL", "ORGANIZATION", "CITY", "AGE", "DATE", "PHONE"):
        assert types[needed] >= 20, needed
    for needed in ("USERNAME", "ROOM", "DEPARTMENT", "STREET", "STATE", "COUNTRY", "ZIP", "LOCATION-OTHER", "FAX",
                   "EMAIL", "URL", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "IDNUM"):
        assert types[needed] >= 1, needed


def test_default_prefix_is_unchanged() -> None:
    build = build_module()
    records = build.build_records(DEV / "notes")
    assert all(str(r["id"]).startswith("hw-") for r in records)
