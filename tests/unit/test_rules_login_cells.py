"""Logins alone in a table's cell or a log's column. Examples invented for these tests."""

from __future__ import annotations

import time

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def usernames(text: str) -> set[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {text[s.start : s.end] for s in spans if s.type is PhiType.USERNAME}


@pytest.mark.parametrize(
    ("text", "login"),
    [
        ("Residency  | 11/12/2025  | ghuang\n", "ghuang"),
        ("| 02/24/26 05:41 | recheck 152/88 | mdiallo |\n", "mdiallo"),
        ("04/06 14:15       GS7-40231         aokafor1     ROSSI, GIANCARLO\n", "aokafor1"),
        ("16:04 CALLBACK  wabernathy: reached the aunt\n", "wabernathy"),
        ("01:29 kbenoit leads off ack'd\n", "kbenoit"),  # the first word of a log entry after its time
    ],
)
def test_a_login_alone_in_a_cell_or_a_column(text: str, login: str) -> None:
    assert login in usernames(text)


@pytest.mark.parametrize(
    "text",
    [
        "| BP | gluc | flag |\n| copay | $150 |\n| parameter | pred | LLN |\n",  # abbreviations, short surnames
        "| negative | lisinopril | boston | smith |\n",  # words, drugs, names in small letters
        "sacrum: stage 2, 1.5 x 1.0 cm\n",
        "she called ghuang about it\n",  # no column sets it apart
        "01:30 patient resting, gluc 110\n",
    ],
)
def test_no_login_from_words_abbreviations_or_running_text(text: str) -> None:
    assert usernames(text) == set()


def test_a_long_table_of_cells_is_read_in_linear_time() -> None:
    text = "| 03/04 06:10 | evallejo | order review | lisinopril |\n" * 5_000
    started = time.perf_counter()
    assert usernames(text) == {"evallejo"}
    assert time.perf_counter() - started < 10


@pytest.mark.parametrize("text", [" " * 200_000 + "x", "| " + " " * 200_000 + "1", "\t" * 100_000 + "ab"])
def test_long_runs_of_blanks_are_read_in_linear_time(text: str) -> None:
    started = time.perf_counter()
    usernames(text)
    assert time.perf_counter() - started < 3
