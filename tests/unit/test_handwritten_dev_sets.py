"""The hand-written development sets (eval/handwritten_dev, eval/handwritten_dev2 ... eval/handwritten_dev14):
each gold.jsonl is current, large enough and well formed, and no two share a note id.

All are compiled by the test set's compiler (eval/handwritten/build.py), with ``--id-prefix hwdev``,
``hwdevb``, ``hwdevc``, ``hwdevd``, ``hwdeve``, ``hwdevf``, ``hwdevg``, ``hwdevh``, ``hwdevi``, ``hwdevj``,
``hwdevk``, ``hwdevl``, ``hwdevm`` and ``hwdevn``. The second was written after the rules had been
tuned on the first, the third after the tuning on the second and the fourth after the tuning on the third,
so each one's first evaluation is out of sample; the fifth was written after the tagger trained on the
first two sets' copies, and first evaluated before anything was tuned on it. The sixth and seventh were written as training material
for the tagger (surrogate copies, deid_tools/train/augment.py).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.handwritten_sets import (
    assert_check_option_accepts,
    assert_gold_is_current,
    assert_ids_prefixed,
    assert_well_formed,
    build_module,
    gold_records,
)

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class DevSet:
    directory: Path
    prefix: str
    min_notes: int
    min_spans: int
    note_chars: tuple[int, int] | None = None
    absent: tuple[str, ...] = ()
    """Rarer types (of PRESENT) this set has none of."""

    @property
    def records(self) -> tuple[dict[str, object], ...]:
        return gold_records(self.directory / "gold.jsonl")


FIRST = DevSet(ROOT / "eval" / "handwritten_dev", "hwdev", min_notes=24, min_spans=700)
# Notes 01-22 are 1,500-3,500 characters; 51-58, written first in another session, a little shorter.
SECOND = DevSet(
    ROOT / "eval" / "handwritten_dev2", "hwdevb", min_notes=16, min_spans=600, note_chars=(1000, 3500)
)
THIRD = DevSet(
    ROOT / "eval" / "handwritten_dev3", "hwdevc", min_notes=26, min_spans=1000, note_chars=(1500, 3500)
)
# Written after the tuning on the third set; no detector had been run on it when it was committed.
FOURTH = DevSet(
    ROOT / "eval" / "handwritten_dev4", "hwdevd", min_notes=26, min_spans=1050, note_chars=(1000, 3600)
)
FIFTH = DevSet(
    ROOT / "eval" / "handwritten_dev5", "hwdeve", min_notes=26, min_spans=1150, note_chars=(1000, 3600)
)
# Written as training material, after the fourth; no detector had been run on them when they were committed.
SIXTH = DevSet(
    ROOT / "eval" / "handwritten_dev6", "hwdevf", min_notes=26, min_spans=1050, note_chars=(1000, 3600),
    absent=("URL",),
)
SEVENTH = DevSet(
    ROOT / "eval" / "handwritten_dev7", "hwdevg", min_notes=26, min_spans=1050, note_chars=(1000, 3600),
    absent=("URL",),
)
# Written as training material after the tagger of model version 4 shipped, each first evaluated out of
# sample (their READMEs); none had been run through a detector when it was committed.
EIGHTH = DevSet(ROOT / "eval" / "handwritten_dev8", "hwdevh", min_notes=26, min_spans=1200, note_chars=(1000, 3600))
NINTH = DevSet(ROOT / "eval" / "handwritten_dev9", "hwdevi", min_notes=26, min_spans=1300, note_chars=(1000, 3600))
TENTH = DevSet(ROOT / "eval" / "handwritten_dev10", "hwdevj", min_notes=26, min_spans=1200, note_chars=(1000, 3600))
ELEVENTH = DevSet(ROOT / "eval" / "handwritten_dev11", "hwdevk", min_notes=26, min_spans=1400, note_chars=(1000, 3600))
# Written as training material while the tagger of model version 5 trained.
TWELFTH = DevSet(ROOT / "eval" / "handwritten_dev12", "hwdevl", min_notes=26, min_spans=1150, note_chars=(1000, 3600))
THIRTEENTH = DevSet(ROOT / "eval" / "handwritten_dev13", "hwdevm", min_notes=26, min_spans=1350, note_chars=(1000, 3600))
FOURTEENTH = DevSet(ROOT / "eval" / "handwritten_dev14", "hwdevn", min_notes=26, min_spans=1650, note_chars=(1000, 3600))
# Written after model version 5 shipped, each first evaluated out of sample (README.md); no detector had been
# run on them when they were committed.
FIFTEENTH = DevSet(ROOT / "eval" / "handwritten_dev15", "hwdevo", min_notes=26, min_spans=1250, note_chars=(1000, 3600))
SIXTEENTH = DevSet(
    ROOT / "eval" / "handwritten_dev16", "hwdevp", min_notes=26, min_spans=1250, note_chars=(1000, 3600), absent=("URL",)
)
SEVENTEENTH = DevSet(ROOT / "eval" / "handwritten_dev17", "hwdevq", min_notes=26, min_spans=1450, note_chars=(1000, 3600))
EIGHTEENTH = DevSet(ROOT / "eval" / "handwritten_dev18", "hwdevr", min_notes=26, min_spans=1450, note_chars=(1000, 3600))
# Written while model version 6 trained; first evaluated out of sample with model versions 5 and 6.
NINETEENTH = DevSet(
    ROOT / "eval" / "handwritten_dev19", "hwdevs", min_notes=26, min_spans=1200, note_chars=(1000, 3600)
)
TWENTIETH = DevSet(
    ROOT / "eval" / "handwritten_dev20", "hwdevt", min_notes=26, min_spans=1200, note_chars=(1000, 3600)
)
TWENTY_FIRST = DevSet(
    ROOT / "eval" / "handwritten_dev21", "hwdevu", min_notes=26, min_spans=1450, note_chars=(1000, 3600)
)
TWENTY_SIXTH = DevSet(
    ROOT / "eval" / "handwritten_dev26", "hwdevz", min_notes=26, min_spans=1500, note_chars=(1000, 3600)
)
TWENTY_SEVENTH = DevSet(
    ROOT / "eval" / "handwritten_dev27", "hwdevaa", min_notes=26, min_spans=1550, note_chars=(1000, 3600), absent=("URL",)
)
TWENTY_FIFTH = DevSet(
    ROOT / "eval" / "handwritten_dev25", "hwdevy", min_notes=26, min_spans=1250, note_chars=(1000, 3600)
)
TWENTY_FOURTH = DevSet(
    ROOT / "eval" / "handwritten_dev24", "hwdevx", min_notes=26, min_spans=1400, note_chars=(1000, 3600)
)
TWENTY_THIRD = DevSet(
    ROOT / "eval" / "handwritten_dev23", "hwdevw", min_notes=26, min_spans=1450, note_chars=(1000, 3600)
)
TWENTY_SECOND = DevSet(
    ROOT / "eval" / "handwritten_dev22", "hwdevv", min_notes=26, min_spans=1450, note_chars=(1000, 3600), absent=("URL",)
)
TWENTY_EIGHTH = DevSet(
    ROOT / "eval" / "handwritten_dev28", "hwdevab", min_notes=26, min_spans=1300, note_chars=(1000, 3600)
)
TWENTY_NINTH = DevSet(
    ROOT / "eval" / "handwritten_dev29", "hwdevac", min_notes=26, min_spans=1500, note_chars=(1000, 3600)
)
THIRTIETH = DevSet(
    ROOT / "eval" / "handwritten_dev30", "hwdevad", min_notes=26, min_spans=1350, note_chars=(1000, 3600)
)
THIRTY_FIRST = DevSet(
    ROOT / "eval" / "handwritten_dev31", "hwdevae", min_notes=26, min_spans=1400, note_chars=(1000, 3600)
)
THIRTY_SECOND = DevSet(
    ROOT / "eval" / "handwritten_dev32", "hwdevaf", min_notes=26, min_spans=1200, note_chars=(1000, 3600)
)
THIRTY_THIRD = DevSet(
    ROOT / "eval" / "handwritten_dev33", "hwdevag", min_notes=26, min_spans=1600, note_chars=(1000, 3600), absent=("ACCOUNT",)
)
THIRTY_FOURTH = DevSet(
    ROOT / "eval" / "handwritten_dev34", "hwdevah", min_notes=26, min_spans=1450, note_chars=(1000, 3600)
)
THIRTY_FIFTH = DevSet(
    ROOT / "eval" / "handwritten_dev35", "hwdevai", min_notes=26, min_spans=1450, note_chars=(1000, 3600)
)
THIRTY_SIXTH = DevSet(
    ROOT / "eval" / "handwritten_dev36", "hwdevaj", min_notes=26, min_spans=1450, note_chars=(1000, 3600)
)
THIRTY_SEVENTH = DevSet(
    ROOT / "eval" / "handwritten_dev37", "hwdevak", min_notes=26, min_spans=1450, note_chars=(1000, 3600)
)
THIRTY_EIGHTH = DevSet(
    ROOT / "eval" / "handwritten_dev38", "hwdeval", min_notes=26, min_spans=1500, note_chars=(1000, 3600), absent=("URL",)
)
THIRTY_NINTH = DevSet(
    ROOT / "eval" / "handwritten_dev39", "hwdevam", min_notes=26, min_spans=1450, note_chars=(1000, 3600)
)
FORTIETH = DevSet(
    ROOT / "eval" / "handwritten_dev40", "hwdevan", min_notes=26, min_spans=1300, note_chars=(1000, 3600)
)
FORTY_FIRST = DevSet(
    ROOT / "eval" / "handwritten_dev41", "hwdevao", min_notes=26, min_spans=1450, note_chars=(1000, 3600)
)
FORTY_SECOND = DevSet(
    ROOT / "eval" / "handwritten_dev42", "hwdevap", min_notes=26, min_spans=1300, note_chars=(1000, 3600), absent=("URL",)
)
FORTY_THIRD = DevSet(
    ROOT / "eval" / "handwritten_dev43", "hwdevaq", min_notes=26, min_spans=1300, note_chars=(1000, 3600)
)
FORTY_FOURTH = DevSet(
    ROOT / "eval" / "handwritten_dev44", "hwdevar", min_notes=26, min_spans=1400, note_chars=(1000, 3600)
)
FORTY_FIFTH = DevSet(
    ROOT / "eval" / "handwritten_dev45", "hwdevas", min_notes=26, min_spans=1400, note_chars=(1000, 3600)
)
FORTY_SIXTH = DevSet(
    ROOT / "eval" / "handwritten_dev46", "hwdevat", min_notes=26, min_spans=1300, note_chars=(1000, 3600)
)
FORTY_EIGHTH = DevSet(
    ROOT / "eval" / "handwritten_dev48", "hwdevav", min_notes=26, min_spans=1250, note_chars=(1000, 3600)
)
FORTY_SEVENTH = DevSet(
    ROOT / "eval" / "handwritten_dev47", "hwdevau", min_notes=26, min_spans=1300, note_chars=(1000, 3600), absent=("URL",)
)
FORTY_NINTH = DevSet(
    ROOT / "eval" / "handwritten_dev49", "hwdevaw", min_notes=26, min_spans=1400, note_chars=(1000, 3600)
)
FIFTIETH = DevSet(
    ROOT / "eval" / "handwritten_dev50", "hwdevax", min_notes=26, min_spans=1600, note_chars=(1000, 3600), absent=("URL",)
)
FIFTY_FIRST = DevSet(
    ROOT / "eval" / "handwritten_dev51", "hwdevay", min_notes=26, min_spans=1350, note_chars=(1000, 3600)
)
FIFTY_SECOND = DevSet(
    ROOT / "eval" / "handwritten_dev52", "hwdevaz", min_notes=26, min_spans=1750, note_chars=(1000, 3600)
)
FIFTY_THIRD = DevSet(
    ROOT / "eval" / "handwritten_dev53", "hwdevba", min_notes=26, min_spans=1450, note_chars=(1000, 3600)
)
FIFTY_FOURTH = DevSet(
    ROOT / "eval" / "handwritten_dev54", "hwdevbb", min_notes=26, min_spans=1500, note_chars=(1000, 3600)
)
FIFTY_FIFTH = DevSet(
    ROOT / "eval" / "handwritten_dev55", "hwdevbc", min_notes=26, min_spans=1250, note_chars=(1000, 3600)
)
FIFTY_SIXTH = DevSet(
    ROOT / "eval" / "handwritten_dev56", "hwdevbd", min_notes=26, min_spans=1250, note_chars=(1000, 3600), absent=("URL",)
)
FIFTY_SEVENTH = DevSet(
    ROOT / "eval" / "handwritten_dev57", "hwdevbe", min_notes=26, min_spans=1850, note_chars=(1000, 3600), absent=("URL",)
)
SIXTIETH = DevSet(
    ROOT / "eval" / "handwritten_dev60", "hwdevbh", min_notes=26, min_spans=1450, note_chars=(1000, 3600)
)
FIFTY_EIGHTH = DevSet(
    ROOT / "eval" / "handwritten_dev58", "hwdevbf", min_notes=26, min_spans=1550, note_chars=(1000, 3600)
)
SIXTY_FOURTH = DevSet(
    ROOT / "eval" / "handwritten_dev64", "hwdevbl", min_notes=26, min_spans=1400, note_chars=(1000, 3600), absent=("URL",)
)
SIXTY_THIRD = DevSet(
    ROOT / "eval" / "handwritten_dev63", "hwdevbk", min_notes=26, min_spans=1400, note_chars=(1000, 3600)
)
FIFTY_NINTH = DevSet(
    ROOT / "eval" / "handwritten_dev59", "hwdevbg", min_notes=26, min_spans=1550, note_chars=(1000, 3600), absent=("URL",)
)
SIXTY_FIRST = DevSet(
    ROOT / "eval" / "handwritten_dev61", "hwdevbi", min_notes=26, min_spans=1350, note_chars=(1000, 3600)
)
SIXTY_SECOND = DevSet(
    ROOT / "eval" / "handwritten_dev62", "hwdevbj", min_notes=26, min_spans=1600, note_chars=(1000, 3600)
)
SIXTY_FIFTH = DevSet(
    ROOT / "eval" / "handwritten_dev65", "hwdevbm", min_notes=26, min_spans=1500, note_chars=(1000, 3600)
)
SIXTY_SIXTH = DevSet(
    ROOT / "eval" / "handwritten_dev66", "hwdevbn", min_notes=26, min_spans=1400, note_chars=(1000, 3600)
)
SIXTY_SEVENTH = DevSet(
    ROOT / "eval" / "handwritten_dev67", "hwdevbo", min_notes=26, min_spans=1400, note_chars=(1000, 3600)
)
SIXTY_EIGHTH = DevSet(
    ROOT / "eval" / "handwritten_dev68", "hwdevbp", min_notes=26, min_spans=1550, note_chars=(1000, 3600)
)
SIXTY_NINTH = DevSet(
    ROOT / "eval" / "handwritten_dev69", "hwdevbq", min_notes=26, min_spans=1350, note_chars=(1000, 3600)
)
SEVENTIETH = DevSet(
    ROOT / "eval" / "handwritten_dev70", "hwdevbr", min_notes=26, min_spans=1250, note_chars=(1000, 3600)
)
SEVENTY_FIRST = DevSet(
    ROOT / "eval" / "handwritten_dev71", "hwdevbs", min_notes=26, min_spans=1500, note_chars=(1000, 3600)
)
SEVENTY_SECOND = DevSet(
    ROOT / "eval" / "handwritten_dev72", "hwdevbt", min_notes=26, min_spans=1450, note_chars=(1000, 3600)
)
SEVENTY_THIRD = DevSet(
    ROOT / "eval" / "handwritten_dev73", "hwdevbu", min_notes=26, min_spans=1600, note_chars=(1000, 3600)
)
SEVENTY_FOURTH = DevSet(
    ROOT / "eval" / "handwritten_dev74", "hwdevbv", min_notes=26, min_spans=1550, note_chars=(1000, 3600), absent=("URL",)
)
SEVENTY_FIFTH = DevSet(
    ROOT / "eval" / "handwritten_dev75", "hwdevbw", min_notes=26, min_spans=1550, note_chars=(1000, 3600), absent=("URL",)
)
SEVENTY_SIXTH = DevSet(
    ROOT / "eval" / "handwritten_dev76", "hwdevbx", min_notes=26, min_spans=1600, note_chars=(1000, 3600)
)
SEVENTY_SEVENTH = DevSet(
    ROOT / "eval" / "handwritten_dev77", "hwdevby", min_notes=26, min_spans=1550, note_chars=(1000, 3600)
)
SEVENTY_EIGHTH = DevSet(
    ROOT / "eval" / "handwritten_dev78", "hwdevbz", min_notes=26, min_spans=1500, note_chars=(1000, 3600), absent=("URL",)
)
SEVENTY_NINTH = DevSet(
    ROOT / "eval" / "handwritten_dev79", "hwdevca", min_notes=26, min_spans=1550, note_chars=(1000, 3600)
)
EIGHTIETH = DevSet(
    ROOT / "eval" / "handwritten_dev80", "hwdevcb", min_notes=26, min_spans=1500, note_chars=(1000, 3600), absent=("URL",)
)
ALL = (FIRST, SECOND, THIRD, FOURTH, FIFTH, SIXTH, SEVENTH, EIGHTH, NINTH, TENTH, ELEVENTH, TWELFTH, THIRTEENTH, FOURTEENTH,
       FIFTEENTH, SIXTEENTH, SEVENTEENTH, EIGHTEENTH, NINETEENTH, TWENTIETH, TWENTY_FIRST, TWENTY_SIXTH, TWENTY_SEVENTH, TWENTY_FIFTH, TWENTY_FOURTH, TWENTY_THIRD, TWENTY_SECOND, TWENTY_EIGHTH, TWENTY_NINTH, THIRTIETH, THIRTY_FIRST, THIRTY_SECOND, THIRTY_THIRD, THIRTY_FOURTH, THIRTY_FIFTH, THIRTY_SIXTH, THIRTY_SEVENTH, THIRTY_EIGHTH, THIRTY_NINTH, FORTIETH, FORTY_FIRST, FORTY_SECOND, FORTY_THIRD, FORTY_FOURTH, FORTY_FIFTH, FORTY_SIXTH, FORTY_EIGHTH, FORTY_SEVENTH, FORTY_NINTH, FIFTIETH, FIFTY_FIRST, FIFTY_SECOND, FIFTY_THIRD, FIFTY_FOURTH, FIFTY_FIFTH, FIFTY_SIXTH, FIFTY_SEVENTH, SIXTIETH, FIFTY_EIGHTH, SIXTY_FOURTH, SIXTY_THIRD, FIFTY_NINTH, SIXTY_FIRST, SIXTY_SECOND, SIXTY_FIFTH, SIXTY_SIXTH, SIXTY_SEVENTH, SIXTY_EIGHTH, SIXTY_NINTH, SEVENTIETH, SEVENTY_FIRST, SEVENTY_SECOND, SEVENTY_THIRD, SEVENTY_FOURTH, SEVENTY_FIFTH, SEVENTY_SIXTH, SEVENTY_SEVENTH, SEVENTY_EIGHTH, SEVENTY_NINTH, EIGHTIETH)
NAMES = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
         "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
         "twentieth", "twenty-first", "twenty-sixth", "twenty-seventh", "twenty-fifth", "twenty-fourth", "twenty-third", "twenty-second", "twenty-eighth", "twenty-ninth", "thirtieth", "thirty-first", "thirty-second", "thirty-third", "thirty-fourth", "thirty-fifth", "thirty-sixth", "thirty-seventh", "thirty-eighth", "thirty-ninth", "fortieth", "forty-first", "forty-second", "forty-third", "forty-fourth", "forty-fifth", "forty-sixth", "forty-eighth", "forty-seventh", "forty-ninth", "fiftieth", "fifty-first", "fifty-second", "fifty-third", "fifty-fourth", "fifty-fifth", "fifty-sixth", "fifty-seventh", "sixtieth", "fifty-eighth", "sixty-fourth", "sixty-third", "fifty-ninth", "sixty-first", "sixty-second", "sixty-fifth", "sixty-sixth", "sixty-seventh", "sixty-eighth", "sixty-ninth", "seventieth", "seventy-first", "seventy-second", "seventy-third", "seventy-fourth", "seventy-fifth", "seventy-sixth", "seventy-seventh", "seventy-eighth", "seventy-ninth", "eightieth"]
SETS = pytest.mark.parametrize("dev", ALL, ids=NAMES)

FREQUENT = ("PATIENT", "DOCTOR", "PROFESSION", "HOSPITAL", "ORGANIZATION", "CITY", "AGE", "DATE", "PHONE")
PRESENT = ("USERNAME", "ROOM", "DEPARTMENT", "STREET", "STATE", "COUNTRY", "ZIP", "LOCATION-OTHER", "FAX",
           "EMAIL", "URL", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "IDNUM")  # fmt: skip


@SETS
def test_gold_matches_the_notes(dev: DevSet) -> None:
    assert_gold_is_current(dev.directory, dev.prefix)


@SETS
def test_check_option_accepts_the_set(dev: DevSet) -> None:
    assert_check_option_accepts(dev.directory, dev.prefix)


@SETS
def test_size(dev: DevSet) -> None:
    records = dev.records
    assert len(records) >= dev.min_notes
    assert sum(len(r["spans"]) for r in records) >= dev.min_spans  # type: ignore[arg-type]
    if dev.note_chars is not None:
        low, high = dev.note_chars
        for record in records:
            assert low <= len(str(record["text"])) <= high, record["id"]


@SETS
def test_ids_use_the_set_prefix(dev: DevSet) -> None:
    assert_ids_prefixed(dev.records, dev.prefix)


@SETS
def test_records_are_well_formed(dev: DevSet) -> None:
    assert_well_formed(dev.records)


@SETS
def test_every_category_is_present(dev: DevSet) -> None:
    types = Counter(s["type"] for r in dev.records for s in r["spans"])  # type: ignore[union-attr]
    for needed in FREQUENT:
        assert types[needed] >= 20, needed
    for needed in PRESENT:
        assert types[needed] >= 1 or needed in dev.absent, needed


@pytest.mark.parametrize("dev", [SECOND, THIRD, FOURTH], ids=["second", "third", "fourth"])
def test_the_set_has_an_ip_address(dev: DevSet) -> None:
    assert any(s["type"] == "IPADDR" for r in dev.records for s in r["spans"])  # type: ignore[union-attr]


def test_the_sets_share_no_note_id() -> None:
    ids = [{str(r["id"]) for r in dev.records} for dev in ALL]
    for i, first in enumerate(ids):
        for second in ids[i + 1 :]:
            assert not first & second


def test_default_prefix_is_unchanged() -> None:
    records = build_module().build_records(FIRST.directory / "notes")
    assert all(str(r["id"]).startswith("hw-") for r in records)
