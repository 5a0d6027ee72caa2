"""AGE rules and age_value."""

from __future__ import annotations

import pytest

from deid_core.agewords import age_value
from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType, Span


def age_spans(text: str) -> list[tuple[str, Span]]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return [(text[s.start : s.end], s) for s in spans if s.type is PhiType.AGE]


def ages(text: str) -> set[str]:
    return {t for t, _ in age_spans(text)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a 72 yo man", "72"),
        ("a 72 y/o man", "72"),
        ("a 72-year-old man", "72"),
        ("a 72 year old man", "72"),
        ("a 72 years old man", "72"),
        ("72 years of age", "72"),
        ("a 3 YO boy", "3"),
        ("age 72, male", "72"),
        ("Age: 45.", "45"),
        ("aged 72 with", "72"),
        ("at age 60 she", "60"),
        ("72M with CHF", "72"),
        ("Pt is a 72 F with", "72"),
        ("a seventy-two year old man", "seventy-two"),
        ("a ninety three year old", "ninety three"),
        ("One hundred and two years old", "One hundred and two"),
        ("a man in his 90s", "90s"),
        ("in her late 80's", "80's"),
        ("a woman in her eighties", "eighties"),
        ("93yo F", "93"),
        ("I'm 70, retired from the mill.", "70"),  # a patient writing
        ("I am 45 and never smoked.", "45"),
        ("Her son is only 14, right?", "14"),
    ],
)
def test_age_surface_forms(text: str, expected: str) -> None:
    assert expected in ages(text)


def test_age_over_89_is_flagged() -> None:
    by_text = dict(age_spans("a 93yo woman, her 72 year old son and her mother in her 90s"))
    assert "age>=90" in by_text["93"].explanation
    assert "age>=90" in by_text["90s"].explanation
    assert "age>=90" not in by_text["72"].explanation
    assert "pattern=" in by_text["72"].explanation


@pytest.mark.parametrize(
    "text",
    [
        "T 101 F",
        "temp 98.6 F, 98 F",
        "14 F Foley placed",
        "16F NG tube",
        "gestational age 32 weeks",
        "age 3 days",
        "Wt 72 kg HR 72",
        "for 3 days",
        "1234 year old",
        "I am 5 days post op.",
        "I'm 2 weeks out from surgery.",
    ],
)
def test_age_look_alikes_not_tagged(text: str) -> None:
    assert ages(text) == set()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("72", 72),
        ("72-year-old", 72),
        ("seventy-two", 72),
        ("ninety three", 93),
        ("93yo", 93),
        ("90s", 90),
        ("nineties", 90),
        ("One hundred and two", 102),
        ("eighteen", 18),
        ("old", None),
        ("", None),
    ],
)
def test_age_value(text: str, value: int | None) -> None:
    assert age_value(text) == value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Lives with her grandson Dmitri (17) and his dog.", {"17"}),
        ('Sister Magdalena ("Maggie", 58) visits daily.', {"58"}),
        ("Twin brother Oskar (4 mo) also congested.", {"4"}),
        ("Children: daughters (2) both local.", set()),  # counted, not aged
        ("Daughter's cell (617) 555-0142.", set()),  # an area code is no age
        ("Reviewed labs (7) with the patient.", set()),  # no relative before it
    ],
)
def test_age_in_parentheses_after_a_relative(text: str, expected: set[str]) -> None:
    assert ages(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The baby is 6 weeks old.", {"6"}),
        ("Twins, 18 months old, at daycare.", {"18"}),
        ("a 3-day-old girl", {"3"}),
        ("Her son is 9.", {"9"}),
        ("His granddaughter was 14 and in school.", {"14"}),
        ("Grandson, 15, visits on weekends.", {"15"}),
        ("her brother Tomas, 58, lives nearby", {"58"}),
        ("three children, ages 4 and 7.", {"4", "7"}),
        ("children ages 2, 5 and 9 live with her", {"2", "5", "9"}),
    ],
)
def test_ages_of_infants_relatives_and_lists(text: str, expected: set[str]) -> None:
    assert ages(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "8-week scan was normal.",
        "Took 4 and 7 tablets.",
        "Son is 6 feet tall.",
        "sister, 2 nephews, and a cousin",
        "Her son, 3 hours late, arrived.",
    ],
)
def test_numbers_near_relatives_and_lists_that_are_no_ages(text: str) -> None:
    assert ages(text) == set()


def test_a_dose_after_an_age_list_is_no_age() -> None:
    assert ages("ages 4 and 7 mg") == {"4"}


@pytest.mark.parametrize(
    ("text", "age"),
    [("Card says: I will be 64 on Labor Day.", "64"), ("She'll be 93 next month.", "93"), ("He will turn 80 this week.", "80")],
)
def test_an_age_about_to_be_reached(text: str, age: str) -> None:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    assert age in {text[s.start : s.end] for s in spans if s.type is PhiType.AGE}


@pytest.mark.parametrize("text", ["He will be 10 minutes late.", "I will be 2 days away.", "The dose will be 5 mg."])
def test_a_duration_or_measure_after_will_be_is_no_age(text: str) -> None:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    assert not any(s.type is PhiType.AGE for s in spans)


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("Children: son Rory, 12, daughter Clodagh, 9.", "9"),
        ("Mother Maire, ovarian ca at 52, deceased.", "52"),
        ("Aunt with breast cancer at 38 and a cousin", "38"),
        ("Father diagnosed at age 61 with CRC.", "61"),
        ("Grandfather died at 70.", "70"),
        ("Father died 2009 at 51.", "51"),  # a year between the event and the age
        ("Mother died in 1998 at age 60", "60"),
        ("Aunt, breast ca at 38, living (66), tested for BRCA1", "66"),  # a pedigree's vital status
        ("- Uncle deceased, 72; MI.", "72"),
        ("I-2 grandmother Edda - ovarian ca dx 58, d. 61", "58"),  # a pedigree's shorthand
        ("I-2 grandmother Edda - ovarian ca dx 58, d. 61", "61"),
        ("II-1 aunt - breast ca dx 47, alive 70, in Haifa", "70"),
    ],
)
def test_ages_at_a_clause_end_and_at_events_of_a_history(text: str, age: str) -> None:
    assert age in ages(text)


@pytest.mark.parametrize(
    "text",
    ["Cousin lives in Daly City; (3) she asked about leave.", "Mass at 10 o'clock on the scan.", "HTN dx 2 yrs ago."],
)
def test_item_numbers_and_clock_positions_are_no_ages(text: str) -> None:
    assert ages(text) == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Her uncle Tomasz is eighty-seven and still drives.", {"eighty-seven"}),
        ("\"She's ninety-one, lives with her son.\"", {"ninety-one"}),
        ("His sister Philippa, seventy, helps on weekends.", {"seventy"}),
        # A measure or a score after an ordinary word, or a spelled number under twenty, is no age.
        ("Score was twenty-one today. Total is thirty.", set()),
        ("Marguerite is six and a half feet from the door.", set()),
    ],
)
def test_spelled_out_ages_after_a_name(text: str, expected: set[str]) -> None:
    assert ages(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Kids: Yasmin (14), Omid (11), and baby Tala (8 mo).", {"14", "11", "8"}),
        ("Married; daughters Efua (7) and Nkechi (3).", {"7", "3"}),
        ("G2P1 (first child Mphatso, 3 yrs, well)", {"3"}),
        ("Siblings Ayaan 12, Mahad 8 - separate reviews.", {"12", "8"}),
        ("Great-grandchildren Zosia 7 and Felek 4, all well.", {"7", "4"}),
        ("Siblings: Ahmad 12, Nilofar 5, Sami 18 months. Overseas exam done.", {"12", "5", "18"}),
        # A ward, a bay or a first name that is a word before a number is no person's age.
        ("Ward (4) and Bay 7; Will (2) see. Keppra (2) with his son.", set()),
        ("Seen at Sunnybank Children's Hospital, Marigold 6, family conference.", set()),
    ],
)
def test_ages_after_first_names(text: str, expected: set[str]) -> None:
    assert ages(text) == expected
