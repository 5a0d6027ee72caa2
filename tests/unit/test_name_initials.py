"""Initials of a person the note names, in signing slots (deid_core/name_initials.py)."""

from __future__ import annotations

import time

import pytest

from deid_core.name_initials import initials_of_names
from schemas import PhiType, Span


def _person(text: str, value: str, kind: PhiType = PhiType.DOCTOR) -> Span:
    start = text.index(value)
    return Span(start, start + len(value), kind, 0.9, frozenset({"tagger"}))


def _found(text: str, *names: str) -> list[str]:
    return [text[s.start : s.end] for s in initials_of_names(text, [_person(text, n) for n in names])]


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("Audiologist: Yevgenia Strand\n--- 01/12/2026 FITTING  (ys / co)\n--- 01/19/2026 PHONE  (ys)", "Yevgenia Strand", ["ys", "ys"]),
        ("Olga Feld, DPM\n12/09/25 debr nails x9. -OF/lz", "Olga Feld", ["OF"]),
        ("shelter RN Bao Anh\n21:00 PEF 220. -- BA\n23:55 generator. -- BA", "Bao Anh", ["BA", "BA"]),
        ("Seen with Ines Sato.\nDictated by C. Oduya, NNP / cosign IS", "Ines Sato", ["IS"]),
        ("resident Eli Amos\nagree. EA 03/09/26 14:20", "Eli Amos", ["EA"]),
        ("STRAND, YEVGENIA\nsigned | YS", "STRAND, YEVGENIA", ["YS"]),
    ],
)
def test_initials_in_signing_slots(text: str, name: str, expected: list[str]) -> None:
    assert _found(text, name) == expected


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Ann Lee, MD saw him. Mary Davis, MD agrees.", "Mary Davis"),  # a credential after a comma
        ("Alan Tran called.\nqSOFA 2 at 09:20; cultures at 09:41", "Alan Tran"),  # a word before a time
        ("Tom Oakes\nTO: Buckeye Children's", "Tom Oakes"),  # a function word in capitals, no strong slot
        ("Oscar Stein\nOS: normal.", "Oscar Stein"),  # an abbreviation before a colon
        ("Dr. Wen Liao (me) and Mei Egan", "Mei Egan"),  # a word in lower case in parentheses
        ("Ana Bell\nBP 120/80 (AB pending)", "Ana Bell"),  # not alone in the parentheses
    ],
)
def test_no_initials_outside_a_slot_or_after_a_credential_comma(text: str, name: str) -> None:
    assert _found(text, name) == []


def test_single_word_names_give_no_initials_and_covered_letters_stay() -> None:
    text = "Per called.\n-- PE\nYara Stone\n-- YS"
    covered = _person(text, "YS")
    assert initials_of_names(text, [_person(text, "Per"), _person(text, "Yara Stone"), covered]) == []


def test_the_person_type_is_kept() -> None:
    text = "daughter Lena Ortiz\n(LO)"
    spans = initials_of_names(text, [_person(text, "Lena Ortiz", PhiType.PATIENT)])
    assert [(text[s.start : s.end], s.type) for s in spans] == [("LO", PhiType.PATIENT)]


def test_many_slots_and_names_stay_linear() -> None:
    names = " ".join(f"Ab{i} Cd{i}" for i in range(2000))
    body = "\n".join("-- AC (ac / AC)" for _ in range(20_000))
    text = names + "\n" + body
    spans = [_person(text, f"Ab{i} Cd{i}") for i in range(0, 2000, 50)]
    started = time.perf_counter()
    found = initials_of_names(text, spans)
    assert len(found) == 60_000
    assert time.perf_counter() - started < 5


def test_a_given_name_among_listed_persons_is_a_person() -> None:
    from deid_core.list_names import names_in_lists

    text = "Staff: Ngozi (Faraday 4), Hallie (Faraday 5), Jun (Pemberton ICU)\n- Dominic - present\n- Ro - absent\n- Mercy - present"
    spans = [_person(text, "Ngozi", PhiType.DOCTOR), _person(text, "Hallie", PhiType.DOCTOR), _person(text, "Dominic", PhiType.PATIENT)]
    assert [text[s.start : s.end] for s in names_in_lists(text, spans)] == ["Jun"]  # two listed persons needed
    spans.append(_person(text, "Mercy", PhiType.PATIENT))
    found = [(text[s.start : s.end], s.type) for s in names_in_lists(text, spans)]
    assert found == [("Jun", PhiType.DOCTOR), ("Ro", PhiType.PATIENT)]


@pytest.mark.parametrize(
    "line",
    [
        "- Debrief for volunteers Wed",  # a word before a lower-case word: a sentence, not a name
        "- Aflibercept 2 mg OD today",  # a measure
        "- Dr. Ilse Vanderhoven (attending)",  # a title
        "- Paramedic (cert # P-40127)",  # a role
    ],
)
def test_list_items_that_are_no_names(line: str) -> None:
    from deid_core.list_names import names_in_lists

    text = f"- Ana Bell - present\n- Tom Ruiz - present\n{line}"
    spans = [_person(text, "Ana Bell"), _person(text, "Tom Ruiz")]
    assert names_in_lists(text, spans) == []


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("Supervising PO: Kristin Halloway (khalloway, desk 2)", "Kristin Halloway", ["khalloway"]),
        ("Destiny Romero-Blanco (drblanco)", "Destiny Romero-Blanco", ["drblanco"]),
        ("D. Ferraro-Quist\nsend comments to dferraroquist2 or call", "D. Ferraro-Quist", []),  # one letter: no form
        ("Sam Pike on call. Case closed by spike 05:52. mood spike noted.", "Sam Pike", ["spike"]),  # a word: slot only
        ("Ana Plan said: per plan, confirmed", "Ana Plan", []),
        ("Reviewed by: Cheyenne (cmorningstar)", "Cheyenne", ["cmorningstar"]),  # beside the name
        ("Scribe: Faith (clinic scribe, fmcallister)", "Faith", ["fmcallister"]),
        ("- Front desk (Lilian, lokafor) booked a ride", "Lilian", ["lokafor"]),
        ("Ordering: Dr. Hollis Varga (hospitalist)", "Hollis Varga", []),  # a role's word, no login
    ],
)
def test_logins_made_from_named_persons(text: str, name: str, expected: list[str]) -> None:
    from deid_core.name_logins import logins_of_names

    assert [text[s.start : s.end] for s in logins_of_names(text, [_person(text, name)])] == expected


def test_lists_and_logins_stay_linear_on_long_input() -> None:
    from deid_core.list_names import names_in_lists
    from deid_core.name_logins import logins_of_names

    text = "Ana Bell, Tom Ruiz, " + ", ".join(["Jun"] * 100_000) + "\n" + " ".join(["abell"] * 100_000) + "\n- x\n" * 50_000
    spans = [_person(text, "Ana Bell"), _person(text, "Tom Ruiz")]
    started = time.perf_counter()
    assert len(names_in_lists(text, spans)) == 100_000
    assert len(logins_of_names(text, spans)) == 100_000
    assert time.perf_counter() - started < 10
