"""Ages right after a person's name (deid_core.after_names). Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.after_names import spans_after_names
from schemas import PhiType, Span


def person(text: str, name: str, type_: PhiType = PhiType.PATIENT) -> Span:
    start = text.index(name)
    return Span(start, start + len(name), type_, 0.9, frozenset({"tagger"}), "t")


@pytest.mark.parametrize(
    ("text", "name", "age"),
    [
        ("Kids: Ximena (14), Diego (11, also has asthma), and Sofi (6).", "Diego", "11"),
        ("Kids: Ximena (14), Diego (11, also has asthma), and Sofi (6).", "Sofi", "6"),
        ("Donor: Oksana Hryhorenko, 61; type A+.", "Oksana Hryhorenko", "61"),
        ("Dr. Brummell saw Joao, 68, with his wife.", "Joao", "68"),
        ("Brother Tomas (58 yo) lives nearby.", "Tomas", "58"),
        ("Lives with her son Aurelio, 9.", "Aurelio", "9"),
        ("Counselor brought Noor Saleh, 10 - homesick, crying.", "Noor Saleh", "10"),
        ("Exposed: Bao (11mo), a sibling.", "Bao", "11"),
        ("Older sibling Noor, 3 yo, healthy.", "Noor", "3"),
    ],
)
def test_the_number_after_a_name_is_its_age(text: str, name: str, age: str) -> None:
    (found,) = spans_after_names(text, [person(text, name)])
    assert (text[found.start : found.end], found.type) == (age, PhiType.AGE)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Gave Lucia, 5 mg of melatonin.", "Lucia"),  # a dose
        ("Called Marisol, 3.5 hours later.", "Marisol"),  # a decimal
        ("Seen by Lucia (2/3 visits).", "Lucia"),  # a fraction
        ("Marisol (0) no answer.", "Marisol"),  # no age 0
        ("Marisol (130) in the queue.", "Marisol"),  # over 120
        ("Marisol, 12 tablets left.", "Marisol"),  # a count before a word
        ("Marisol, 12 - 3 in the final.", "Marisol"),  # a score
    ],
)
def test_a_measure_after_a_name_is_no_age(text: str, name: str) -> None:
    assert spans_after_names(text, [person(text, name)]) == []


def test_a_number_already_covered_or_after_another_type_is_left_alone() -> None:
    text = "Ximena (14) and Pembroke Clinic (3)."
    covered = Span(8, 10, PhiType.AGE, 0.9, frozenset({"rules"}), "r")
    assert spans_after_names(text, [person(text, "Ximena"), covered, person(text, "Pembroke Clinic", PhiType.HOSPITAL)]) == []


@pytest.mark.parametrize(
    ("text", "name", "nick"),
    [
        ('Donor: Oksana "Ox" Hryhorenko, 61.', "Oksana", "Ox"),
        ('farm at brother Stanislaw\'s ("Stosh") near Mankato', "Stanislaw", "Stosh"),
        ("Her son Robert \u201cBobby Jo\u201d drives.", "Robert", "Bobby Jo"),
        ('Lodger: Brantley Cole Huskey ("BC"), approx 23', "Brantley Cole Huskey", "BC"),
        ('Member: HAWKINS, LEROY "BUDDY"   DOB 12/09/1941', "HAWKINS, LEROY", "BUDDY"),
    ],
)
def test_a_nickname_in_quotes_after_a_name_is_the_same_person(text: str, name: str, nick: str) -> None:
    (found,) = spans_after_names(text, [person(text, name)])
    assert (text[found.start : found.end], found.type) == (nick, PhiType.PATIENT)


@pytest.mark.parametrize(
    "text",
    ['Ximena said "Thanks" twice.', 'Ximena: "no pain today"', 'Ximena "feels fine"', 'Ximena "STAT" per family'],
)
def test_a_quotation_after_a_name_is_no_nickname(text: str) -> None:
    assert spans_after_names(text, [person(text, "Ximena")]) == []


@pytest.mark.parametrize(
    ("text", "name", "short"),
    [
        ("day charge is RN Mags (Magdalena Zoric), handoff 06:45", "Magdalena Zoric", "Mags"),
        ("Daughter: Bea (Beatrix) calls nightly.", "Beatrix", "Bea"),
    ],
)
def test_a_short_form_before_the_name_in_parentheses_is_the_same_person(text: str, name: str, short: str) -> None:
    (found,) = spans_after_names(text, [person(text, name, PhiType.DOCTOR)])
    assert (text[found.start : found.end], found.type) == (short, PhiType.DOCTOR)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Seen at Mercy (Magdalena Zoric attending).", "Magdalena Zoric"),  # no closing parenthesis after it
        ("Called Tessa (Magdalena Zoric) at noon.", "Magdalena Zoric"),  # another name's letters
        ("Magdalena (Magdalena Zoric)", "Magdalena Zoric"),  # the same word
    ],
)
def test_no_short_form_where_the_word_is_not_the_name_s_start(text: str, name: str) -> None:
    assert spans_after_names(text, [person(text, name)]) == []


@pytest.mark.parametrize("tail", [" " * 200_000 + "- call", "\t " * 100_000 + "x", " " * 200_000 + "(3"])
def test_a_long_run_of_blanks_after_a_name_is_read_in_linear_time(tail: str) -> None:
    import time

    text = "Seen by Amadou" + tail
    started = time.perf_counter()
    spans_after_names(text, [person(text, "Amadou")])
    assert time.perf_counter() - started < 3


def test_a_short_form_in_capitals_before_a_name_in_capitals() -> None:
    text = 'NIECE SKY ("SKYLAR") WORKS AS A CLERK'
    (found,) = spans_after_names(text, [person(text, "SKYLAR")])
    assert text[found.start : found.end] == "SKY"
