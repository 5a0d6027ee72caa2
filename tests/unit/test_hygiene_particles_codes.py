"""Span hygiene: surname particles and billing codes (invented probes)."""

from __future__ import annotations

import pytest

from deid_core.hygiene import build_hygiene
from schemas import PhiType, Span


def cleaned(text: str, part: str, type_: PhiType) -> list[str]:
    start = text.index(part)
    span = Span(start, start + len(part), type_, 0.9, frozenset({"tagger"}), "model=test")
    return [text[s.start : s.end] for s in build_hygiene().clean(text, [span])]


@pytest.mark.parametrize(
    ("text", "part", "expected"),
    [
        ("Radiologist: Dr. Joost van der Wiel   Date 1/2", "Joost", "Joost van der Wiel"),
        ("Spoke with Ms. de la Cruz today.", "Cruz", "de la Cruz"),
        ("Seen by Ana da Silva, RN.", "Ana", "Ana da Silva"),
        ("Called Dr. von Stade back.", "Stade", "von Stade"),
    ],
)
def test_a_name_takes_its_surname_particles(text: str, part: str, expected: str) -> None:
    assert cleaned(text, part, PhiType.DOCTOR) == [expected]


@pytest.mark.parametrize(("text", "part"), [("gave it to Sam de facto", "Sam"), ("asked la nurse", "nurse")])
def test_particles_before_ordinary_words_stay_out(text: str, part: str) -> None:
    assert cleaned(text, part, PhiType.PATIENT) in ([part], [])


@pytest.mark.parametrize(("text", "part"), [("fusion (CPT 22630), inpatient", "CPT 22630"), ("billed as CPT 99214 today", "99214")])
def test_billing_codes_are_no_identifiers(text: str, part: str) -> None:
    assert cleaned(text, part, PhiType.IDNUM) == []


def test_a_record_number_stays() -> None:
    assert cleaned("MRN 7003318 on file", "7003318", PhiType.MEDICALRECORD) == ["7003318"]


@pytest.mark.parametrize("name", ["Sinéad Ó Dálaigh", "Zoë Marchetti-Lund", "Björn Åkesson"])
def test_a_capitalised_name_read_as_an_email_is_a_person(name: str) -> None:
    text = f"Patient: {name}   DOB 1/2/1980"
    start = text.index(name)
    span = Span(start, start + len(name), PhiType.EMAIL, 0.9, frozenset({"tagger"}), "model=test")
    out = build_hygiene().clean(text, [span])
    assert [(text[s.start : s.end], s.type) for s in out] == [(name, PhiType.PATIENT)]


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("| vo, thanh binh         | Business   | 09:45 |", "vo, thanh binh", PhiType.PATIENT),  # a lower-case name
        ("00:13  Britt: shelby two crow, FROM x6612", "shelby two crow", PhiType.PATIENT),
        ("proxy access for jpratt.nb (Jolene)", "jpratt.nb", PhiType.USERNAME),  # no "@": a login
        ("formerly a line cook at the salty cleat grill in canal park", "salty cleat grill", PhiType.EMAIL),  # words
    ],
)
def test_a_lower_case_name_or_a_login_read_as_an_email(text: str, value: str, expected: PhiType) -> None:
    start = text.index(value)
    span = Span(start, start + len(value), PhiType.EMAIL, 0.9, frozenset({"tagger"}), "model=test")
    assert [(text[s.start : s.end], s.type) for s in build_hygiene().clean(text, [span])] == [(value, expected)]


@pytest.mark.parametrize("value", ["jdoe at example dot com", "Jane Doe at Example dot org", "JDoe2 Mail"])
def test_spelled_out_addresses_stay_emails(value: str) -> None:
    text = f"write to {value} today"
    start = text.index(value)
    span = Span(start, start + len(value), PhiType.EMAIL, 0.9, frozenset({"tagger"}), "model=test")
    assert all(s.type is PhiType.EMAIL for s in build_hygiene().clean(text, [span]))


def tagger_span(text: str, part: str, type_: PhiType) -> list[str]:
    start = text.index(part)
    span = Span(start, start + len(part), type_, 0.9, frozenset({"tagger"}), "model=test")
    return [text[s.start : s.end] for s in build_hygiene().clean(text, [span])]


def test_an_at_without_a_domain_is_no_email() -> None:
    assert tagger_span("maternal aunt, breast ca at 38, living", "ca at ", PhiType.EMAIL) == []
    assert tagger_span("write to jdoe at example dot com today", "jdoe at example dot com", PhiType.EMAIL) == [
        "jdoe at example dot com"
    ]


@pytest.mark.parametrize(("text", "part"), [("Plan: 84-gene panel via saliva", "84"), ("a 12-lead ECG", "12")])
def test_a_count_joined_to_a_noun_is_no_age(text: str, part: str) -> None:
    assert tagger_span(text, part, PhiType.AGE) == []


@pytest.mark.parametrize(("text", "part"), [("a 45-year-old man", "45"), ("her 3-day-old son", "3"), ("a 6-mo-old", "6")])
def test_ages_joined_to_units_of_age_stay(text: str, part: str) -> None:
    assert tagger_span(text, part, PhiType.AGE) == [part]


@pytest.mark.parametrize(
    ("text", "part", "expected"),
    [
        ("Patient: de Vries, Maartje   DOB 1/2/1960", "Vries, Maartje", "de Vries, Maartje"),
        ("van den Broek, Pieter\nAdmitted from home.", "Broek, Pieter", "van den Broek, Pieter"),
    ],
)
def test_particles_opening_a_field_go_with_the_surname(text: str, part: str, expected: str) -> None:
    assert cleaned(text, part, PhiType.PATIENT) == [expected]


def test_particles_inside_prose_before_a_name_stay_out() -> None:
    # only a capitalised word, a title, a line's start or a field's colon make a particle a surname's
    assert cleaned("she went to la Vries house", "Vries", PhiType.PATIENT) == ["Vries"]


def test_a_label_in_capitals_is_no_first_name() -> None:
    # "Dob" is a first name in the lists; "DOB" before a name in title case is the date-of-birth label.
    assert cleaned("Our client Nell Park, DOB April 2, 1938", "April", PhiType.PATIENT) == ["April"]
    assert cleaned("PT: JOHN SMITH in bay 2", "SMITH", PhiType.PATIENT) == ["JOHN SMITH"]


def test_staff_initials_found_once_spread_to_their_other_entries() -> None:
    text = "| cab | 41.00 | QV\n03/02 QV: Ms. Lowe lost her ride. On RA.\n| SR | QV |"
    start = text.index("QV:")
    span = Span(start, start + 2, PhiType.DOCTOR, 0.75, frozenset({"rules"}), "rule=test")
    found = [text[s.start : s.end] for s in build_hygiene().clean(text, [span])]
    assert found == ["QV", "QV", "QV"]


def test_a_two_letter_name_written_in_small_letters_spreads_in_small_letters() -> None:
    text = "mother reached; vy nguyen at bedside. vy gave her the family line. pt to ed if worse. lt on duty."
    span = Span(text.index("vy nguyen"), text.index("vy nguyen") + 9, PhiType.DOCTOR, 0.9, frozenset({"tagger"}), "m")
    found = [text[s.start : s.end] for s in build_hygiene().clean(text, [span])]
    assert found == ["vy nguyen", "vy"]
    capitalised = "Vy Nguyen at bedside. vy gave her the line."  # the name written with a capital: "vy" is left
    span = Span(0, 9, PhiType.DOCTOR, 0.9, frozenset({"tagger"}), "m")
    assert [capitalised[s.start : s.end] for s in build_hygiene().clean(capitalised, [span])] == ["Vy Nguyen"]


@pytest.mark.parametrize(
    ("name", "guessed"),
    [("陳玉蘭", PhiType.MEDICALRECORD), ("박순자", PhiType.AGE), ("Стоян Иванов Петров", PhiType.CITY)],
)
def test_a_name_in_another_script_is_a_person_whatever_the_tagger_guessed(name: str, guessed: PhiType) -> None:
    text = f"Patient: DOE, JANE ({name})    MRN 20-1"
    start = text.index(name)
    span = Span(start, start + len(name), guessed, 0.9, frozenset({"tagger"}), "model=test")
    assert [(text[s.start : s.end], s.type) for s in build_hygiene().clean(text, [span])] == [(name, PhiType.PATIENT)]


def test_a_given_name_that_is_a_function_word_or_a_weekday_spreads_from_a_full_name() -> None:
    text = "Daughter Thu Pham-Delgado at bedside. Thu translated for her aunt. Clinic Thu 2/19 and Mon/Thu."
    span = Span(9, 25, PhiType.PATIENT, 0.9, frozenset({"tagger"}), "m")
    found = [text[s.start : s.end] for s in build_hygiene().clean(text, [span])]
    assert found == ["Thu Pham-Delgado", "Thu"]  # not the clinic days
    alone = "Seen Thu. Thu translated."  # no full name: nothing spreads
    assert build_hygiene().clean(alone, []) == []


def test_a_weak_given_name_a_rule_found_alone_spreads_but_not_from_the_tagger_alone() -> None:
    text = "Grandson An (6) visits. Taught Vy and An the exercises. An MRI is booked."
    span = Span(9, 11, PhiType.PATIENT, 0.7, frozenset({"rules"}), "m")
    found = [text[s.start : s.end] for s in build_hygiene().clean(text, [span]) if s.type is PhiType.PATIENT]
    assert found == ["An", "An"]  # the name in the sentence, not the article opening one
    tagged = Span(9, 11, PhiType.PATIENT, 0.9, frozenset({"tagger"}), "m")
    second = text.index("and An") + 4
    assert all(s.start != second for s in build_hygiene().clean(text, [tagged]))


def test_a_weak_given_name_spreads_from_the_last_word_of_a_name_written_family_name_first() -> None:
    text = "Daughter Nguyen Thi An is the caregiver. An disagreed with the plan."
    span = Span(9, 22, PhiType.PATIENT, 0.9, frozenset({"tagger"}), "m")
    assert [text[s.start : s.end] for s in build_hygiene().clean(text, [span])] == ["Nguyen Thi An", "An"]
