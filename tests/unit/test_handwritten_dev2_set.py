"""The second hand-written development set (eval/handwritten_dev2): gold.jsonl is current, large enough and well formed.

It is compiled by the test set's compiler (eval/handwritten/build.py) with ``--id-prefix hwdevb``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tests.handwritten_sets import assert_well_formed, build_module
from tests.handwritten_sets import gold_records as handwritten_gold

ROOT = Path(__file__).resolve().parents[2]
DEV = ROOT / "eval" / "handwritten_dev2"
GOLD = DEV / "gold.jsonl"
PREFIX = "hwdevb"


def gold_records() -> tuple[dict[str, object], ...]:
    return handwritten_gold(GOLD)


def test_gold_matches_the_notes() -> None:
    build = build_module()
    expected = build.render_jsonl(build.build_records(DEV / "notes", PREFIX))
    assert GOLD.read_text(encoding="utf-8") == expected, (
        "gold.jsonl is stale: run python eval/handwritten/build.py --notes eval/handwritten_dev2/notes "
        "--out eval/handwritten_dev2/gold.jsonl --id-prefix hwdevb"
    )


def test_check_option_accepts_the_dev_set() -> None:
    build = build_module()
    argv = ["--notes", str(DEV / "notes"), "--out", str(GOLD), "--id-prefix", PREFIX, "--check"]
    assert build.main(argv) == 0


def test_size() -> None:
    records = gold_records()
    assert len(records) >= 8
    assert sum(len(r["spans"]) for r in records) >= 250  # type: ignore[arg-type]


def test_ids_use_the_dev_prefix() -> None:
    ids = [str(r["id"]) for r in gold_records()]
    assert all(i.startswith(f"{PREFIX}-") for i in ids), ids
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)


def test_records_are_well_formed() -> None:
    assert_well_formed(gold_records())


def test_every_category_is_present() -> None:
    types = Counter(s["type"] for r in gold_records() for s in r["spans"])  # type: ignore[union-attr]
    for needed in ("PATIENT", "DOCTOR", "AGE", "DATE"):
        assert types[needed] >= 20, needed
    for needed in ("USERNAME", "PROFESSION", "ROOM", "DEPARTMENT", "HOSPITAL", "ORGANIZATION", "STREET", "CITY",
                   "STATE", "COUNTRY", "ZIP", "LOCATION-OTHER", "PHONE", "FAX", "EMAIL", "MEDICALRECORD",
                   "HEALTHPLAN", "ACCOUNT", "LICENSE", "DEVICE", "IDNUM"):
        assert types[needed] >= 1, needed


def test_default_prefix_is_unchanged() -> None:
    build = build_module()
    records = build.build_records(DEV / "notes")
    assert all(str(r["id"]).startswith("hw-") for r in records)
