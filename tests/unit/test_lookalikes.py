"""Cars read as streets and capital headings read as names (deid_core.lookalikes, through hygiene and
trimming). Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.hygiene import build_hygiene
from deid_core.lexicon import load_lexicons
from deid_core.lookalikes import capital_heading, car_model, item_label, model_year
from schemas import PhiType, Span


def tagged(text: str, value: str, type_: PhiType) -> Span:
    start = text.index(value)
    return Span(start, start + len(value), type_, 0.9, frozenset({"tagger"}), "t")


@pytest.mark.parametrize(
    ("value", "car"),
    [("2011 Subaru Outback", True), ("1998 Camry", True), ("2019 Ford F-150", True),
     ("2016 Ford Road", False), ("212 Honda Lane", False), ("2016 Maple Street", False)],
)
def test_car_model(value: str, car: bool) -> None:
    assert car_model(value) is car


def test_a_car_read_as_a_street_keeps_its_model_year_as_a_date() -> None:
    text = "Driver of a 2013 Toyota Sienna hit a pole."
    out = build_hygiene().clean(text, [tagged(text, "2013 Toyota Sienna", PhiType.STREET)])
    assert [(text[s.start : s.end], s.type) for s in out] == [("2013", PhiType.DATE)]
    assert model_year("2013 Toyota Sienna")[1] == "2013"  # type: ignore[index]


@pytest.mark.parametrize(
    ("text", "value", "heading"),
    [
        ("OCCUPATIONAL THERAPY & WELLNESS - DAILY NOTE\nPt seen.", "OCCUPATIONAL THERAPY & WELLNESS", True),
        ("WOUND CARE CONSULT\nSeen.", "WOUND CARE CONSULT", True),
        ("HOLLOWAY, MARGARET - 71 F\nSeen.", "HOLLOWAY, MARGARET", False),  # a name in capitals
        ("Seen.\nLA\n", "LA", False),  # one word: may be initials
        ("Note: WOUND CARE CONSULT today", "WOUND CARE CONSULT", False),  # not at the line start
        ("WOUND CARE CONSULT today", "WOUND CARE CONSULT", False),  # the line goes on in prose
    ],
)
def test_capital_heading(text: str, value: str, heading: bool) -> None:
    start = text.index(value)
    assert capital_heading(text, start, start + len(value), load_lexicons()) is heading


def test_hygiene_drops_a_tagger_heading_but_not_a_header_one() -> None:
    text = "WOUND CARE & SUPPORT - ADMISSION NOTE"
    value = "WOUND CARE & SUPPORT"
    header = Span(0, len(value), PhiType.ORGANIZATION, 0.99, frozenset({"header"}), "h")
    out = build_hygiene().clean(text, [tagged(text, value, PhiType.ORGANIZATION), header])
    assert [s.sources for s in out] == [frozenset({"header"})]


@pytest.mark.parametrize(
    ("text", "value", "type_", "dropped"),
    [
        ("Tone: modified Ashworth 2 at the wrist.", "Ashworth 2", PhiType.DEPARTMENT, True),
        ("Pressure 14/15 by Goldmann today.", "Goldmann", PhiType.DOCTOR, True),
        ("Seen with Dr. Tinel in clinic.", "Tinel", PhiType.DOCTOR, False),  # a title: a person
        ("Seen with Rosalind Okafor today.", "Rosalind Okafor", PhiType.PATIENT, False),
    ],
)
def test_instrument_eponyms(text: str, value: str, type_: PhiType, dropped: bool) -> None:
    out = build_hygiene().clean(text, [tagged(text, value, type_)])
    assert (not any(s.type is type_ for s in out)) is dropped


def test_the_gazetteer_names_no_instrument_eponym() -> None:
    from deid_core.detect.lexical import build_lexicon_detector
    from schemas import EnrichedNote

    text = "Function: Lawton IADL 3/8, Barthel 60."
    spans = build_lexicon_detector().detect(EnrichedNote("n", text))
    assert not any(text[s.start : s.end] in {"Lawton", "Barthel"} for s in spans)


@pytest.mark.parametrize(("value", "dropped"), [("nursing student", True), ("law students", True), ("school librarian", False)])
def test_a_student_is_no_profession(value: str, dropped: bool) -> None:
    text = f"She is a {value} in town."
    out = build_hygiene().clean(text, [tagged(text, value, PhiType.PROFESSION)])
    assert (out == []) is dropped


def test_a_first_name_before_a_denomination_is_no_person() -> None:
    from deid_core.detect.lexical import build_lexicon_detector
    from schemas import EnrichedNote

    text = "A 70 y/o Roman Catholic widow; her nephew Roman visits."
    assert [s.start for s in build_lexicon_detector().detect(EnrichedNote("n", text)) if text[s.start : s.end] == "Roman"] == [text.rindex("Roman")]
    assert build_hygiene().clean(text, [tagged(text, "Roman", PhiType.PATIENT)]) == []


@pytest.mark.parametrize(
    ("text", "value", "type_", "dropped"),
    [
        ("CT head on the Toshiba Aquilion ONE, no contrast.", "Toshiba Aquilion", PhiType.ORGANIZATION, True),
        ("Sleep tracked with a Fitbit Charge 5 at home.", "Fitbit Charge", PhiType.USERNAME, True),
        ("Insulin by pump (Omnipod Dash), settings unchanged.", "Omnipod Dash", PhiType.PATIENT, True),
        ("Wife Marisol Quintero brought the pump log.", "Marisol Quintero", PhiType.PATIENT, False),
    ],
)
def test_a_device_by_its_maker_is_no_name(text: str, value: str, type_: PhiType, dropped: bool) -> None:
    out = build_hygiene().clean(text, [tagged(text, value, type_)])
    assert (not any(s.type is type_ for s in out)) is dropped


def test_device_makers_are_no_names_nor_words() -> None:
    # A maker that a name list holds (Siemens, Jamar) would drop a person of that name.
    lex = load_lexicons()
    listed = lex.cues["device_brands"] | lex.cues["drug_brands"]
    clash = {w for w in listed if lex.is_name(w) or lex.is_word(w)}
    assert clash == set()


@pytest.mark.parametrize(
    ("value", "dropped"),
    [("Best regards", True), ("Warmest regards", True), ("Sincerely", True), ("Odile Brandvold", False)],
)
def test_a_closing_formula_is_no_person(value: str, dropped: bool) -> None:
    text = f"We will see him in June.\n\n{value},\nOdile Brandvold, NP"
    out = build_hygiene().clean(text, [tagged(text, value, PhiType.DOCTOR)])
    assert (not any(text[s.start : s.end] == value for s in out)) is dropped


@pytest.mark.parametrize(
    ("text", "value", "dropped"),
    [
        ("Spiritual history (HOPE) taken; faith is central.", "HOPE", True),
        ("Depression screen (PHQA) negative today.", "PHQA", True),
        ("Kit assigned per IXRS, confirmation IXRS-40712.", "IXRS", True),
        ("Consent witnessed by KTR; copy to chart.", "KTR", False),  # a person's initials
        ("Seen with Dr. Oyelaran (KTR) on rounds.", "KTR", False),  # initials after a name
    ],
)
def test_an_acronym_of_a_thing_is_no_person(text: str, value: str, dropped: bool) -> None:
    out = build_hygiene().clean(text, [tagged(text, value, PhiType.DOCTOR)])
    assert (not any(text[s.start : s.end] == value for s in out)) is dropped


@pytest.mark.parametrize(
    ("text", "value", "dropped"),
    [
        ("Interpreter present in person for the visit.", "person", True),  # "Person" is also a surname
        ("Walks to the church twice a week.", "church", True),
        ("moved here from boston last year", "boston", False),  # a city in a lower-case note
        ("message left for mary at home", "mary", False),  # a first name the tagger mistyped: still PHI
        ("pre-op in suite 4 today", "suite 4", False),  # a number: a room
    ],
)
def test_lower_case_ordinary_words_are_no_place(text: str, value: str, dropped: bool) -> None:
    out = build_hygiene().clean(text, [tagged(text, value, PhiType.CITY)])
    assert (out == []) is dropped


@pytest.mark.parametrize(
    ("text", "value", "dropped"),
    [
        ("Dupilumab was started for eczema; dupilumab levels n/a.", "Dupilumab", True),
        ("Ertapenem failed; Daptomycin given since.", "Daptomycin", True),
        ("Consent signed by April Vinterberg.", "April", False),  # a first name, however drug-like
        ("Nurse Tassone checked the line.", "Tassone", False),  # a surname
    ],
)
def test_a_drug_is_no_person(text: str, value: str, dropped: bool) -> None:
    out = build_hygiene().clean(text, [tagged(text, value, PhiType.PATIENT)])
    assert (not any(s.type is PhiType.PATIENT for s in out)) is dropped


def test_a_listed_name_with_a_drug_ending_stays_a_name() -> None:
    from deid_core.lookalikes import drug_name

    lex = load_lexicons()
    stems = tuple(lex.cues["drug_stems"])
    # few names end so ("Kostatin"); the name lists keep them people
    alike = [n for n in (*lex.first_names, *lex.surnames) if len(n) >= 7 and n.endswith(stems)]
    assert len(alike) < 5 and not any(drug_name([n.title()], lex) for n in alike)


@pytest.mark.parametrize(
    ("value", "dropped"),
    [("letter", True), ("kidney donor", True), ("water", True), ("welder", False), ("crane operator", False)],
)
def test_an_agent_ending_without_a_job_is_no_profession(value: str, dropped: bool) -> None:
    text = f"Asked about the {value} today."
    out = build_hygiene().clean(text, [tagged(text, value, PhiType.PROFESSION)])
    assert (out == []) is dropped


def test_no_listed_occupation_is_a_not_agent() -> None:
    lex = load_lexicons()
    assert not {p.split()[-1] for p in lex.professions} & lex.cues["not_agents"]


@pytest.mark.parametrize(
    ("text", "value", "heading"),
    [
        ("HOME INFUSION PHARMACY - NURSING CALL LOG\nCalled pt.", "INFUSION PHARMACY", True),
        ("PRIMARY CARE VISIT - FOLLOW UP\nSeen.", "PRIMARY CARE", True),
        ("SPORTS MEDICINE CLINIC\nSeen.", "MEDICINE CLINIC", True),
        ("SEEN BY OKAFOR CLINIC - NOTE\nSeen.", "OKAFOR CLINIC", False),  # a name no dictionary lists
    ],
)
def test_capital_heading_with_its_first_or_last_words_outside_the_span(text: str, value: str, heading: bool) -> None:
    start = text.index(value)
    assert capital_heading(text, start, start + len(value), load_lexicons()) is heading


@pytest.mark.parametrize(
    ("text", "value", "dropped"),
    [
        ("Report by Tove Lindqvist, MA, CCC-SLP   ext 4410", "SLP", True),
        ("Seen by Ines Morrow, PA-C today.", "C", False),  # one letter: no listed credential
        ("Seen by Anna-Maria Lind today.", "Maria", False),  # a hyphenated first name
    ],
)
def test_a_credential_joined_to_a_credential_is_no_person(text: str, value: str, dropped: bool) -> None:
    span = tagged(text, value, PhiType.DOCTOR)
    out = build_hygiene().clean(text, [span])
    assert (not any(s.start <= span.start and span.end <= s.end for s in out)) is dropped


_PARTS = "SPECIMENS\nA. Right breast, lumpectomy.\nB. Left axillary node.\nC. Deep margin.\n"


@pytest.mark.parametrize(
    ("text", "value", "label"),
    [
        (_PARTS, "B. Left", True),  # a report's parts: "A." and "C." beside it
        (_PARTS, "C.", True),
        ("Part A. Right breast.\nB. One node, negative.\n", "B. One", False),  # no sibling label opens a line
        ("Covering today:\nJ. Smith, MD\n", "J. Smith", False),  # a name opening a line
        ("A. Skin.\nB. Okonkwo-Reyes reviewed it.\n", "B. Okonkwo", False),  # no ordinary word after the letter
    ],
)
def test_item_label(text: str, value: str, label: bool) -> None:
    start = text.index(value)
    assert item_label(text, start, start + len(value), load_lexicons()) is label


@pytest.mark.parametrize(
    ("text", "value", "type_", "dropped"),
    [
        ("Impression: Abnormal EEG owing to left temporal slowing.", "EEG", PhiType.HOSPITAL, True),
        ("Issued 21:55 by Wojciech (MLS). Started 22:10.", "MLS", PhiType.HOSPITAL, True),
        ("Lonnie to take him to the DMV for a state id.", "DMV", PhiType.ORGANIZATION, True),
        ("Therapist: Cordelia Ashgrove, PT, ATP", "ATP", PhiType.CITY, True),
        ("Discussed with Dr. Ruiz. OB / hn", "OB", PhiType.DOCTOR, False),  # two capitals: initials
        ("Transferred from MGH yesterday.", "MGH", PhiType.HOSPITAL, False),  # a hospital's abbreviation
        ("Lives in Boise, ID 83702.", "ID", PhiType.STATE, False),
        ("Eeg was normal.", "Eeg", PhiType.PATIENT, False),  # not in capitals
    ],
)
def test_a_clinical_abbreviation_is_no_name_or_place(text: str, value: str, type_: PhiType, dropped: bool) -> None:
    out = build_hygiene().clean(text, [tagged(text, value, type_)])
    assert (not any(text[s.start : s.end] == value for s in out)) is dropped


def test_clinical_abbreviations_hold_no_state_code_ward_or_hospital() -> None:
    # A state code (MA, PA), a ward (ICU) or a hospital's abbreviation in the list would drop real PHI.
    lex = load_lexicons()
    listed = lex.cues["clinical_abbreviations"]
    assert {w for w in listed if w.upper() in lex.us_states or w.upper() in lex.hospital_abbreviations} == set()
    assert listed & lex.cues["ward_tails"] == set()
