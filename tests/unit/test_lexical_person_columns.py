"""Names in a table's person column (``| student |``, ``| name |``), in any case; not relations, words or
titled names. Examples invented for these tests."""

from __future__ import annotations

from deid_core.detect.lexical import build_lexicon_detector
from schemas import EnrichedNote, PhiType


def test_names_under_a_person_column_in_any_case() -> None:
    text = (
        "time  | student (gr)     | complaint\n07:52 | tyrese b.        | wheezy\n08:30 | An Tran          | stomach ache\n"
        "10:40 | bo lindahl (6)   | itchy scalp\n11:00 | see note         | x\n11:10 | Mom              | x\n"
        "11:20 | Dr. Lasko        | x\n"
    )
    spans = build_lexicon_detector().detect(EnrichedNote("t", text))
    got = {text[s.start : s.end] for s in spans if s.type is PhiType.PATIENT and s.explanation == "lexicon=person_column"}
    assert got == {"tyrese b.", "An Tran", "bo lindahl"}


def test_no_names_under_other_columns() -> None:
    text = "time  | complaint        | action\n07:52 | bo lindahl       | home\n"
    spans = build_lexicon_detector().detect(EnrichedNote("t", text))
    assert not [s for s in spans if s.explanation == "lexicon=person_column"]
