"""The second hand-written development set (eval/handwritten_dev2): gold.jsonl is current, large enough and well formed.

It is compiled by the test set's compiler (eval/handwritten/build.py) with ``--id-prefix hwdevb``. It was
written after the rules had been tuned on eval/handwritten_dev, so its first evaluation is out of sample.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tests.handwritten_sets import (
    assert_check_option_accepts,
    assert_gold_is_current,
    assert_ids_prefixed,
    assert_well_formed,
)
from tests.handwritten_sets import gold_records as handwritten_gold

ROOT = Path(__file__).resolve().parents[2]
DEV2 = ROOT / "eval" / "handwritten_dev2"
GOLD = DEV2 / "gold.jsonl"
PREFIX = "hwdevb"


def gold_records() -> tuple[dict[str, object], ...]:
    return handwritten_gold(GOLD)


def test_gold_matches_the_notes() -> None:
    assert_gold_is_current(DEV2, PREFIX)


def test_check_option_accepts_the_second_dev_set() -> None:
    assert_check_option_accepts(DEV2, PREFIX)


def test_size() -> None:
    records = gold_records()
    assert len(records) >= 16
    assert sum(len(r["spans"]) for r in records) >= 600  # type: ignore[arg-type]


def test_note_lengths() -> None:
    # Notes 01-22 are 1,500-3,500 characters; 51-58, written first in another session, a little shorter.
    for record in gold_records():
        assert 1000 <= len(str(record["text"])) <= 3500, record["id"]


def test_ids_use_the_second_dev_prefix() -> None:
    assert_ids_prefixed(gold_records(), PREFIX)


def test_records_are_well_formed() -> None:
    assert_well_formed(gold_records())


def test_every_category_is_present() -> None:
    types = Counter(s["type"] for r in gold_records() for s in r["spans"])  # type: ignore[union-attr]
    for needed in ("PATIENT", "DOCTOR", "PROFESSION", "HOSPITAL", "ORGANIZATION", "CITY", "AGE", "DATE", "PHONE"):
        assert types[needed] >= 20, needed
    for needed in ("USERNAME", "ROOM", "DEPARTMENT", "STREET", "STATE", "COUNTRY", "ZIP", "LOCATION-OTHER", "FAX",
                   "EMAIL", "URL", "IPADDR", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE",
                   "IDNUM"):
        assert types[needed] >= 1, needed


def test_no_overlap_with_the_first_dev_set_ids() -> None:
    first = {str(r["id"]) for r in handwritten_gold(ROOT / "eval" / "handwritten_dev" / "gold.jsonl")}
    assert not first & {str(r["id"]) for r in gold_records()}
