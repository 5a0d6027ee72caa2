"""The tagger's over-long spans cut to the PHI inside them (deid_core.trim), through span hygiene.
Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.hygiene import build_hygiene
from deid_core.lexicon import load_lexicons
from deid_core.trim import SpanTrimmer
from schemas import PhiType, Span


@pytest.fixture(scope="module")
def trimmer() -> SpanTrimmer:
    return SpanTrimmer(load_lexicons())


def tagged(text: str, value: str, type_: PhiType) -> Span:
    start = text.index(value)
    return Span(start, start + len(value), type_, 0.9, frozenset({"tagger"}), "t")


def pieces(trimmer: SpanTrimmer, text: str, value: str, type_: PhiType) -> list[tuple[str, str]]:
    return [(text[s.start : s.end], s.type.value) for s in trimmer.pieces(text, tagged(text, value, type_))]


@pytest.mark.parametrize(
    ("text", "value", "type_", "expected"),
    [
        ("Agency: Foxhollow Home Care      Agency patient #: 88", "Foxhollow Home Care      Agency", PhiType.ORGANIZATION, "Foxhollow Home Care"),
        ("Patient: Quenton Ashgrove      Age 77", "Quenton Ashgrove      Age", PhiType.PATIENT, "Quenton Ashgrove"),
        ("DISPENSING LOG\nMarlowe Drug Mart, 9 Pier Rd", "LOG\nMarlowe Drug Mart", PhiType.ORGANIZATION, "Marlowe Drug Mart"),
        ("Pt: OKAFOR, BENEDIKT      71 F      DOB 1/1/1953", "OKAFOR, BENEDIKT      71 F", PhiType.PATIENT, "OKAFOR, BENEDIKT"),
        ("Lives in:      Dunmore", "      Dunmore", PhiType.CITY, "Dunmore"),
    ],
)
def test_a_label_beyond_a_column_gap_or_line_break_is_cut_off(trimmer, text, value, type_, expected) -> None:
    assert [v for v, _ in pieces(trimmer, text, value, type_)] == [expected]


@pytest.mark.parametrize(
    ("text", "value", "type_"),
    [
        ("Seen by Dr. Marguerite\nOstrowski in clinic.", "Marguerite\nOstrowski", PhiType.DOCTOR),  # a name broken by a line
        ("Occupation: welder\nDriver license on file", "welder\nDriver", PhiType.DOCTOR),  # a role word ends its line
        ("Dept: Vascular Surgery\nSun 10/12", "Vascular Surgery\nSun", PhiType.DEPARTMENT),  # two ordinary words
    ],
)
def test_nothing_is_cut_without_a_label_or_across_lines_after_a_cue(trimmer, text, value, type_) -> None:
    assert [v for v, _ in pieces(trimmer, text, value, type_)] == [value]


def test_a_blank_line_parts_two_names(trimmer) -> None:
    text = "PI: Dr. Hartley Brummell\n\nJoão, 68, came in."
    assert pieces(trimmer, text, "Hartley Brummell\n\nJoão", PhiType.DOCTOR) == [
        ("Hartley Brummell", "DOCTOR"), ("João", "DOCTOR")
    ]


@pytest.mark.parametrize(
    ("text", "value", "type_", "expected"),
    [
        ("- Daughter Philippa in Leeds updated.", "Daughter Philippa", PhiType.DOCTOR, [("Philippa", "PATIENT")]),
        ("Keys handed to courier Desmond at 3 pm.", "courier Desmond", PhiType.USERNAME, [("Desmond", "PATIENT")]),
        ("Call report to Brookhaven nurse Ifeoma at ext 4.", "Brookhaven nurse Ifeoma", PhiType.ORGANIZATION,
         [("Brookhaven", "ORGANIZATION"), ("Ifeoma", "DOCTOR")]),
        ("Phoned Lakeland Mutual Health Plan for auth.", "Phoned Lakeland Mutual Health Plan", PhiType.ORGANIZATION,
         [("Lakeland Mutual Health Plan", "ORGANIZATION")]),
        ("Aunt describes Cosimo as withdrawn.", "describes Cosimo", PhiType.PATIENT, [("Cosimo", "PATIENT")]),
        ("Case moved from Agent Lupe Ortiz in May.", "Agent Lupe Ortiz", PhiType.ORGANIZATION, [("Lupe Ortiz", "PATIENT")]),
        ("Heard of the van from CHW Ruby Lee.", "CHW Ruby Lee", PhiType.ORGANIZATION, [("Ruby Lee", "PATIENT")]),
    ],
)
def test_a_cue_word_before_the_name_is_cut_off(trimmer, text, value, type_, expected) -> None:
    assert pieces(trimmer, text, value, type_) == expected


def test_an_organisation_named_with_a_role_word_stays_whole(trimmer) -> None:
    text = "Referred to Visiting Nurse Association of Kent."
    assert [v for v, _ in pieces(trimmer, text, "Visiting Nurse Association", PhiType.ORGANIZATION)] == ["Visiting Nurse Association"]


def test_two_people_joined_by_and_become_two_spans(trimmer) -> None:
    text = "Coach Desmond Lindqvist and Marisol were told."
    assert pieces(trimmer, text, "Desmond Lindqvist and Marisol", PhiType.ORGANIZATION) == [
        ("Desmond Lindqvist", "PATIENT"), ("Marisol", "PATIENT"),
    ]


def test_a_firm_of_partners_stays_one_name(trimmer) -> None:
    text = "Works at Martin, Gregory and Ellis as a clerk."
    assert [v for v, _ in pieces(trimmer, text, "Martin, Gregory and Ellis", PhiType.ORGANIZATION)] == ["Martin, Gregory and Ellis"]


def test_a_credential_after_a_comma_leaves_the_person(trimmer) -> None:
    text = "Crew: Oriel Fontaine, Paramedic (cert 12)"
    assert pieces(trimmer, text, "Oriel Fontaine, Paramedic", PhiType.PATIENT) == [("Oriel Fontaine", "PATIENT")]


def test_a_sentence_end_stops_the_lead_trim(trimmer) -> None:
    text = "read-back by -- wa. Level 4 node."
    assert [v for v, _ in pieces(trimmer, text, "wa. Level", PhiType.DOCTOR)] == ["wa. Level"]


def test_hygiene_trims_only_tagger_spans() -> None:
    text = "Agency: Foxhollow Home Care      Agency patient"
    value = "Foxhollow Home Care      Agency"
    start = text.index(value)
    lexical = Span(start, start + len(value), PhiType.ORGANIZATION, 0.7, frozenset({"lexicon"}), "l")
    out = build_hygiene().clean(text, [lexical, tagged(text, value, PhiType.ORGANIZATION)])
    assert sorted(text[s.start : s.end] for s in out if s.start == start) == ["Foxhollow Home Care", value]


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("Serum (sodium gap 19) rising.", "sodium gap 19", []),
        ("Posts as handle ritz_cracker_7 online.", "handle ritz_cracker_7", [("ritz_cracker_7", "USERNAME")]),
        ("Portal user kdoyle.22. Reset done.", "user kdoyle.22.", [("kdoyle.22", "USERNAME")]),
        ("Cheers to a grand 85th next week!", "grand 85th", [("85th", "AGE")]),
        ("flowsheet - quarrydale 7 - stable", "quarrydale 7", [("quarrydale 7", "USERNAME")]),  # no ordinary word: a ward
    ],
)
def test_a_user_name_with_blanks_keeps_only_its_handle_parts(trimmer, text, value, expected) -> None:
    assert pieces(trimmer, text, value, PhiType.USERNAME) == expected


@pytest.mark.parametrize(("value", "dropped"), [("TUG", True), ("MOCA8", True), ("ADL-style", True), ("kdoyle22", False), ("jo-ann22", False)])
def test_hygiene_drops_capital_and_compound_user_names(value: str, dropped: bool) -> None:
    text = f"Noted: {value} today."
    out = build_hygiene().clean(text, [tagged(text, value, PhiType.USERNAME)])
    assert (not any(s.type is PhiType.USERNAME for s in out)) is dropped


def test_a_long_number_in_a_user_name_with_blanks_stays(trimmer) -> None:
    text = "Member number 40917733 on file."
    assert pieces(trimmer, text, "number 40917733", PhiType.USERNAME) == [("40917733", "USERNAME")]


def test_a_lower_case_surname_word_before_a_lower_case_name_goes(trimmer) -> None:
    text = "1300 neighbor from church, desmond, dropped off soup."
    assert pieces(trimmer, text, "church, desmond", PhiType.DOCTOR) == [("desmond", "DOCTOR")]


def test_two_people_when_the_first_is_no_listed_first_name(trimmer) -> None:
    text = "Trainer Tobin Vasquez-Reyes and Marisol were told."
    assert pieces(trimmer, text, "Tobin Vasquez-Reyes and Marisol", PhiType.ORGANIZATION) == [
        ("Tobin Vasquez-Reyes", "PATIENT"), ("Marisol", "PATIENT"),
    ]


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("You can also e-mail at the office: pia.ruud [at] example [dot] org today.",
         "e-mail at the office: pia.ruud [at] example [dot] org", "pia.ruud [at] example [dot] org"),
        ("Reach me at tomas_k@example.net please.", "Reach me at tomas_k@example.net", "tomas_k@example.net"),
        ("or by e-mail at ines dot vale at example dot com.", "e-mail at ines dot vale at example dot com",
         "ines dot vale at example dot com"),
        ("Write to ines@example.com", "ines@example.com", "ines@example.com"),
        # No at sign: a guess run on from the line above keeps its last line only.
        ("opener).\n\n  tvasilescu -- T. V", "opener).\n\n  tvasilescu", "tvasilescu"),
    ],
)
def test_an_email_starts_at_its_local_part(trimmer, text, value, expected) -> None:
    assert [v for v, _ in pieces(trimmer, text, value, PhiType.EMAIL)] == [expected]


@pytest.mark.parametrize(
    ("text", "value", "type_", "expected"),
    [
        ("Meet at CVMC main entrance; call first.", "CVMC main entrance", PhiType.ORGANIZATION, ["CVMC"]),
        ("Call St. Anselm Parish office today.", "St. Anselm Parish office", PhiType.ORGANIZATION, ["St. Anselm Parish"]),
        ("Lives in Harrowby. Transport by van.", "Harrowby. Transport", PhiType.ORGANIZATION, ["Harrowby"]),
        ("read-back by -- ka. Level 3 node.", "ka. Level", PhiType.DOCTOR, ["ka. Level"]),  # initials end a sentence
    ],
)
def test_trailing_lower_case_words_and_a_sentence_end(trimmer, text, value, type_, expected) -> None:
    assert [v for v, _ in pieces(trimmer, text, value, type_)] == expected


@pytest.mark.parametrize(
    ("text", "value", "type_"),
    [("Their cat, Marisol, sleeps on the bed.", "Marisol", PhiType.PATIENT), ("Two dogs (Pip and Moss) at home.", "Pip and Moss", PhiType.ORGANIZATION)],
)
def test_hygiene_drops_a_pet_named_after_a_pet_word(text: str, value: str, type_: PhiType) -> None:
    assert build_hygiene().clean(text, [tagged(text, value, type_)]) == []


def test_the_lexicon_names_no_pet() -> None:
    from deid_core.detect.lexical import build_lexicon_detector
    from schemas import EnrichedNote

    text = "Their dog, Marisol, stays in the yard; daughter Marisol visits."
    spans = build_lexicon_detector().detect(EnrichedNote("n", text))
    assert [s.start for s in spans if text[s.start : s.end] == "Marisol"] == [text.rindex("Marisol")]


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [("Reach OT at ext 3318 today.", "ext 3318", "3318"), ("Pager #: 5520 overnight.", "Pager #: 5520", "5520"),
     ("Call 802-555-0100 ext 12.", "802-555-0100 ext 12", "802-555-0100 ext 12")],
)
def test_an_extension_word_before_the_digits_goes(trimmer, text: str, value: str, expected: str) -> None:
    assert [v for v, _ in pieces(trimmer, text, value, PhiType.PHONE)] == [expected]


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [("Left a message with Calloway Baptist Church vestry staff.", "Calloway Baptist Church vestry", "Calloway Baptist Church"),
     ("Works at Quarrel Forge inc since May.", "Quarrel Forge inc", "Quarrel Forge inc")],
)
def test_closing_lower_case_words_of_an_institution(trimmer, text: str, value: str, expected: str) -> None:
    assert [v for v, _ in pieces(trimmer, text, value, PhiType.ORGANIZATION)] == [expected]


def test_a_role_word_between_the_cue_and_the_name_goes(trimmer) -> None:
    text = "Newborn: Baby Boy Whitcombe-Ory, MRN 100."
    assert pieces(trimmer, text, "Baby Boy Whitcombe-Ory", PhiType.ORGANIZATION) == [("Whitcombe-Ory", "PATIENT")]


def test_a_firm_named_with_a_relation_word_stays_whole(trimmer) -> None:
    text = "Employed by Foster and Sons since 2001."
    assert [v for v, _ in pieces(trimmer, text, "Foster and Sons", PhiType.ORGANIZATION)] == ["Foster and Sons"]


@pytest.mark.parametrize(("text", "value"), [("Held (eGFR 41) today.", "eGFR 41"), ("Trend BUN 30 up.", "BUN 30")])
def test_a_lab_name_in_capitals_and_a_value_is_no_user_name(trimmer, text: str, value: str) -> None:
    assert pieces(trimmer, text, value, PhiType.USERNAME) == []


def test_an_instrument_eponym_is_no_user_name() -> None:
    text = "Positive (Tinel sign) at wrist."
    assert build_hygiene().clean(text, [tagged(text, "Tinel sign", PhiType.USERNAME)]) == []


@pytest.mark.parametrize(
    ("value", "expected"),
    [("Medicaid / Tolland Valley Health Plan", "Tolland Valley Health Plan"), ("Ardent Mutual Plan", "Ardent Mutual Plan")],
)
def test_a_public_payer_joined_before_an_institution_goes(trimmer, value: str, expected: str) -> None:
    text = f"Insurance: {value} supplement."
    assert [v for v, _ in pieces(trimmer, text, value, PhiType.ORGANIZATION)] == [expected]


@pytest.mark.parametrize(
    ("value", "expected"),
    [("Hollin Chapel on Tarrow Lane", [("Hollin Chapel", "ORGANIZATION"), ("Tarrow Lane", "STREET")]),
     ("Bank of Hollin", [("Bank of Hollin", "ORGANIZATION")])],
)
def test_a_street_after_an_institution_is_its_own_span(trimmer, value: str, expected) -> None:
    text = f"Church: {value}. Pastor visits."
    assert pieces(trimmer, text, value, PhiType.ORGANIZATION) == expected


def test_list_punctuation_at_a_span_end_is_no_part_of_it(trimmer) -> None:
    text = "Lives at 4400 Conestoga Pike, Lancaster."
    assert pieces(trimmer, text, "4400 Conestoga Pike, ", PhiType.STREET) == [("4400 Conestoga Pike", "STREET")]
    text = "Dr. Carpenter, Urology; Crawford General Hospital: rounds"
    assert pieces(trimmer, text, "; Crawford General Hospital:", PhiType.HOSPITAL) == [
        ("Crawford General Hospital", "HOSPITAL")
    ]


@pytest.mark.parametrize(
    ("text", "value", "name"),
    [
        ("OKONJO-BRANDT, MIRIAM ELISE   71F   DOB 1/2/1953", "OKONJO-BRANDT, MIRIAM ELISE   71F", "OKONJO-BRANDT, MIRIAM ELISE"),
        ("Vasquez, Tomas      8M      Room 4", "Vasquez, Tomas      8M", "Vasquez, Tomas"),
    ],
)
def test_an_age_and_sex_column_is_cut_off_a_name(trimmer: SpanTrimmer, text: str, value: str, name: str) -> None:
    assert pieces(trimmer, text, value, PhiType.PATIENT) == [(name, "PATIENT")]


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("Family meeting 2/23 with Tess, Grant and Ronaldo by video.", "Tess, Grant and Ronaldo", [("Tess", "PATIENT"), ("Grant", "PATIENT"), ("Ronaldo", "PATIENT")]),
        ("Thread members: Sunny, Booker, Chase", "Sunny, Booker, Chase", [("Sunny", "PATIENT"), ("Booker", "PATIENT"), ("Chase", "PATIENT")]),
        ("Counsel: Garland & Reese, LLP", "Garland & Reese", [("Garland & Reese", "ORGANIZATION")]),  # a firm writes &
        ("Billing: Summit, Cascade and Partners", "Summit, Cascade and Partners", [("Summit, Cascade and Partners", "ORGANIZATION")]),
    ],
)
def test_an_institution_of_listed_given_names_is_those_people(trimmer, text, value, expected) -> None:
    assert pieces(trimmer, text, value, PhiType.ORGANIZATION) == expected


def test_an_e_mail_guess_that_lists_logins_is_those_logins(trimmer) -> None:
    text = "Participants: n.adebisi, wferraro, diwuhartley\nFamily"
    value = "n.adebisi, wferraro, diwuhartley"
    assert pieces(trimmer, text, value, PhiType.EMAIL) == [("n.adebisi", "USERNAME"), ("wferraro", "USERNAME"), ("diwuhartley", "USERNAME")]
    text = "write to kim dot lo at example dot com, or call"
    assert pieces(trimmer, text, "kim dot lo at example dot com", PhiType.EMAIL) == [("kim dot lo at example dot com", "EMAIL")]
