"""The lexicon detector (people, places, professions), the spelled-out contact rules and span hygiene.

Examples are written here for these tests; none comes from eval/handwritten (which is only measured).
"""

from __future__ import annotations

import pytest

from deid_core.detect.lexical import build_lexicon_detector
from deid_core.detect.rules import build_rule_detector
from deid_core.hygiene import build_hygiene
from deid_core.lexicon import load_lexicons
from schemas import EnrichedNote, PhiType, Span


@pytest.fixture(scope="module")
def lexicon():
    return build_lexicon_detector()


def found(detector, text: str) -> set[tuple[str, str]]:
    return {(text[s.start : s.end], s.type.value) for s in detector.detect(EnrichedNote("n", text))}


def words(detector, text: str) -> set[str]:
    return {value for value, _ in found(detector, text)}


@pytest.mark.parametrize(
    ("text", "name", "type_"),
    [
        ("Visited today with her granddaughter Anneliese and the dog.", "Anneliese", "PATIENT"),
        ("The neighbor, Mr. Wojcik, brings groceries.", "Wojcik", "PATIENT"),
        ("Husband Grace? No: his wife Grace signed the consent.", "Grace", "PATIENT"),
        ("Discussed plan with social worker Marisol Quintanilla.", "Marisol Quintanilla", "DOCTOR"),
        ("Seen with Dr. Brown from nephrology.", "Brown", "DOCTOR"),
        ("He prefers to be called Teddy.", "Teddy", "PATIENT"),
        ("Bernadette walked 200 feet with a rolling walker.", "Bernadette", "PATIENT"),
        ("Son Will Achterberg will drive her home.", "Will Achterberg", "PATIENT"),
        ("Interpreter Farida K. present for the visit.", "Farida K", "DOCTOR"),
        ("VANDERMEER, MARGARET J admitted overnight.", "VANDERMEER, MARGARET J", "PATIENT"),
        ("sister rosalind at bedside overnight", "rosalind", "PATIENT"),
        # After a colon a first name is still the person, an ordinary word opens a sentence.
        ("Spoke with her niece: Hope agreed to drive.", "Hope", "PATIENT"),
        ("History from his brother: Oyelaran says he fell.", "Oyelaran", "PATIENT"),
        # Given names that Webster's also lists, read as names after a relation only.
        ("Retired teacher; son Arjun visits on weekends.", "Arjun", "PATIENT"),
        ("His wife Brit (an accountant) manages the pills.", "Brit", "PATIENT"),
        # A function word that is a first name, capitalised mid-sentence after a relation.
        ("Her grandson An (12) interprets.", "An", "PATIENT"),
    ],
)
def test_people(lexicon, text: str, name: str, type_: str) -> None:
    assert (name, type_) in found(lexicon, text)


@pytest.mark.parametrize(
    "text",
    [
        "Braden scale 16, Morse Fall Scale 35.",
        "CTA: Stanford type A dissection. Columbia screen negative. No Ludwig's angina.",  # eponyms
        "Will follow up on Monday. May need labs.",
        "Management per the Guidelines section.",
        "His mother-in-law helps with meals.",
        "Jan 12 labs reviewed; per Cardiology, continue.",
        "Spoke with Pharmacy about the refill.",
        "Continue Keppra 500 bid and Lasix 40 daily.",
        "History from her nephew: Mood has been low since spring.",
        "Information from his daughter: Short of breath on stairs.",
        "Aria and Brit are words too: no cue, no name.",
        "Results reviewed with his sister. An MRI is planned; sister An MRI?",
    ],
)
def test_no_people_or_places_in_clinical_phrases(lexicon, text: str) -> None:
    assert found(lexicon, text) == set()


def test_a_ward_after_a_name_is_no_first_name(lexicon) -> None:
    # "Kerr, Aspen" would read LAST, FIRST; a word and a number after the comma are a ward.
    text = "1905 eve: Madison Kerr, Aspen 5 rm 521 to nuc med"
    assert ("Madison Kerr", "PATIENT") in found(lexicon, text)
    assert all("Aspen" not in value for value in words(lexicon, text))


def test_possessive_stays_outside_the_name(lexicon) -> None:
    assert ("Anneliese", "PATIENT") in found(lexicon, "Her niece Anneliese's car broke down.")


def test_name_across_a_line_break(lexicon) -> None:
    text = "Spoke with daughter Rosalind\nKowalski about the plan."
    assert ("Rosalind\nKowalski", "PATIENT") in found(lexicon, text)


@pytest.mark.parametrize(
    ("text", "value", "type_"),
    [
        ("Transferred to Pemberton 3 West overnight.", "Pemberton 3 West", "DEPARTMENT"),
        ("Back to Whitcombe 7 after the scan.", "Whitcombe 7", "DEPARTMENT"),
        ("Outside records from Larkspur General were reviewed.", "Larkspur General", "HOSPITAL"),
        ("Outside records from Larkspur Valley Medical Center.", "Larkspur Valley Medical Center", "HOSPITAL"),
        ("Follows with oncology at MSKCC.", "MSKCC", "HOSPITAL"),
        ("Was seen at Massachusetts General Hospital in 2019.", "Massachusetts General Hospital", "HOSPITAL"),
        ("Moved here from Tucson last year.", "Tucson", "CITY"),
        ("Grew up in Portugal.", "Portugal", "COUNTRY"),
        ("Treated in Tucson stage by stage over a year.", "Tucson", "CITY"),  # not an eponym head
        ("Retired from Consolidated Foundry after 30 years.", "Consolidated Foundry", "ORGANIZATION"),
        ("Attends Quarry Hill Elementary, 2nd grade.", "Quarry Hill Elementary", "ORGANIZATION"),
        # A full stop ends the sentence before a name: the surname before it is no part of the insurer.
        ("Met Mr. Okafor. Insurance Larch Valley Medicare Advantage, ID 4.", "Larch Valley Medicare Advantage", "ORGANIZATION"),
    ],
)
def test_places(lexicon, text: str, value: str, type_: str) -> None:
    assert (value, type_) in found(lexicon, text)


def test_place_eponyms_are_not_places(lexicon) -> None:
    # Invented eponyms after real place names: the next word makes it a thing.
    assert words(lexicon, "Tucson syndrome ruled out; Portugal criteria not met.") == set()


def test_common_word_cities_are_not_places(lexicon) -> None:
    assert words(lexicon, "Mobile phone on file. Independence with ADLs.") == set()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("He works as a welder at the shipyard.", "welder"),
        ("She is a retired school bus driver.", "school bus driver"),
        ("Occupation: electrician", "electrician"),
        ("A carpenter by trade.", "carpenter"),
        ("He retired in 2019 as a choir director at the academy.", "choir director"),
        ("- Partner, 26, warehouse associate: was watching the baby.", "warehouse associate"),
    ],
)
def test_professions(lexicon, text: str, value: str) -> None:
    assert (value, "PROFESSION") in found(lexicon, text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Father Luc, a paper mill shift supervisor, and mother Annika.", "paper mill shift supervisor"),
        ("She is an ICU nurse at the county hospital.", "ICU nurse"),
        ("Former Army medic (two tours).", "Army medic"),
        ("son Anders (19, a ranch hand and EMT student)", "ranch hand"),
        ("Daughter Yewande (a respiratory therapist at another hospital)", "respiratory therapist"),
        ("pt was a sweetgrass basket weaver, sells at the market", "sweetgrass basket weaver"),
    ],
)
def test_occupations_named_with_modifiers(lexicon, text: str, value: str) -> None:
    assert (value, "PROFESSION") in found(lexicon, text)


@pytest.mark.parametrize(
    "text",
    [
        "She is a poor hand washer.",  # the noun goes on after the head
        "He was a restrained driver in the MVC.",  # how, not which
        "Works as an aircraft mechanic. Security officer Lamar Whitlock called.",  # a sentence ends between
        "The left hand is swollen; retired.",  # a head alone is an ordinary word
    ],
)
def test_no_occupation_from_a_head_without_its_phrase(lexicon, text: str) -> None:
    spans = {v for v, t in found(lexicon, text) if t == "PROFESSION"}
    assert spans <= {"aircraft mechanic"}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # Jobs no list holds, known by an agent noun's ending after a job cue.
        ("Her brother is a sheep shearer on the coast.", "sheep shearer"),
        ("Dad works as a caretaker at the marina.", "caretaker"),
        ("Formerly a Coast Guard corpsman.", "Coast Guard corpsman"),
        ("mom is an airport baggage screener", "airport baggage screener"),
        ("Can I come in today? I'm a fourth-grade teacher at the academy.", "fourth-grade teacher"),
        ("JOB TITLE: grain elevator operator (days)", "grain elevator operator"),
        ("Her niece Odile, a CNA at a rehab.", "CNA"),
    ],
)
def test_occupations_the_list_lacks(lexicon, text: str, value: str) -> None:
    assert (value, "PROFESSION") in found(lexicon, text)


@pytest.mark.parametrize(
    "text",
    [
        "Patient is a former smoker and a poor historian.",
        "She was a restrained passenger; he is a heavy drinker.",
        "He is a danger to self. Started a second TNF inhibitor.",
        "After that, a quick shower is fine. Hypertension was a contributor.",
    ],
)
def test_no_occupation_from_an_agent_ending_alone(lexicon, text: str) -> None:
    assert not {v for v, t in found(lexicon, text) if t == "PROFESSION"}


def test_a_device_or_a_case_role_is_no_profession(lexicon) -> None:
    # Listed as ambiguous: a cue must say it is someone's job.
    text = "Use the patient programmer to switch back.\nFuneral director: Benedikt Schaller"
    assert not any(t == "PROFESSION" for _, t in found(lexicon, text))


def test_care_team_roles_are_not_professions(lexicon) -> None:
    assert words(lexicon, "The nurse was notified and the therapist saw him.") == set()
    # a possessive before the role is no "is": "Dr. Ames's nurse" is his nurse
    text = "Called Dr. Ames's nurse Wanda, then the state transport broker. Grade 3, teacher Mr. Lund."
    assert not any(t == "PROFESSION" for _, t in found(lexicon, text))


@pytest.mark.parametrize(
    ("text", "value", "type_"),
    [
        ("Call back at six one seven, five five five, oh one four four.", "six one seven, five five five, oh one four four", "PHONE"),
        ("Write to jb.hollis at example dot org with questions.", "jb.hollis at example dot org", "EMAIL"),
        ("Reach the clinic desk at x4410.", "x4410", "PHONE"),
        ("Page the fellow, pager 22871.", "22871", "PHONE"),
        ("Posted on social media as @marsh_wren77 last week.", "@marsh_wren77", "USERNAME"),
        ("Portal username: hollisjb", "hollisjb", "USERNAME"),
    ],
)
def test_spelled_out_contacts(text: str, value: str, type_: str) -> None:
    assert (value, type_) in found(build_rule_detector(), text)


def test_doses_are_not_extensions() -> None:
    assert not any(t == "PHONE" for _, t in found(build_rule_detector(), "Gave x100 mg and ext 12 hours later."))


def _span(start: int, end: int, type_: PhiType, source: str = "tagger") -> Span:
    return Span(start, end, type_, 0.9, frozenset({source}), "")


def test_hygiene_widens_spans_to_whole_words() -> None:
    text = "placed a stimulator today"
    [span] = build_hygiene().clean(text, [_span(11, 15, PhiType.DEVICE)])
    assert text[span.start : span.end] == "stimulator"


def test_hygiene_drops_tagger_look_alikes_but_keeps_evidence() -> None:
    hygiene = build_hygiene()
    text = "Her mother-in-law per Guidelines; pain 6/10 today."
    law = text.index("law")
    guide = text.index("Guidelines")
    score = text.index("6/10")
    spans = [
        _span(law, law + 3, PhiType.PATIENT),
        _span(guide, guide + 10, PhiType.DOCTOR),
        _span(score, score + 4, PhiType.DATE),
    ]
    assert hygiene.clean(text, spans) == []
    kept = [_span(law, law + 3, PhiType.PATIENT, source="header")]
    assert hygiene.clean(text, kept) == kept


def test_hygiene_completes_names() -> None:
    hygiene = build_hygiene()
    text = "Seen by Dr. Adaeze Okonkwo-Bright and Petra Lindqvist."
    first = text.index("Adaeze")
    last = text.index("Lindqvist")
    out = hygiene.clean(text, [_span(first, first + 6, PhiType.DOCTOR), _span(last, last + 9, PhiType.PATIENT)])
    assert [text[s.start : s.end] for s in out] == ["Adaeze Okonkwo-Bright", "Petra Lindqvist"]


def test_hygiene_does_not_take_specialties_as_surnames() -> None:
    text = "Discussed with Ostrowski Cardiology."
    start = text.index("Ostrowski")
    [span] = build_hygiene().clean(text, [_span(start, start + 9, PhiType.DOCTOR)])
    assert text[span.start : span.end] == "Ostrowski"


def test_lexicons_load_once_and_know_nicknames() -> None:
    lex = load_lexicons()
    assert load_lexicons() is lex
    assert "bill" in lex.name_variants("William")
    assert "margaret" in lex.name_variants("Peggy")
    assert lex.is_word("will") and not lex.is_word("marguerite")
    assert lex.us_states["MA"] == "massachusetts"
    assert "OHSU" in lex.hospital_abbreviations


def test_hygiene_spreads_a_found_name_to_its_other_mentions() -> None:
    text = "Her daughter Anneliese visited. anneliese brought lunch; Anneliese's phone is on file."
    first = text.index("Anneliese")
    out = build_hygiene().clean(text, [_span(first, first + 9, PhiType.PATIENT, source="lexicon")])
    assert sorted(text[s.start : s.end] for s in out) == ["Anneliese", "Anneliese", "anneliese"]


def test_hygiene_does_not_spread_ordinary_words() -> None:
    text = "Son Will visited. Will follow up."
    start = text.index("Will")
    out = build_hygiene().clean(text, [_span(start, start + 4, PhiType.PATIENT, source="lexicon")])
    assert len(out) == 1


def test_hygiene_spreads_a_two_letter_name_only_as_written() -> None:
    text = "Her granddaughter Vy (19) called. Vy is helping; Vy's number as backup. VY and vy are not her."
    first = text.index("Vy")
    out = build_hygiene().clean(text, [_span(first, first + 2, PhiType.PATIENT)])
    names = sorted(s.start for s in out if s.type is PhiType.PATIENT)
    assert [text[i : i + 2] for i in names] == ["Vy", "Vy", "Vy"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Lives with his wife Ama (74) in a split-level.", "Ama"),
        ("Older brother Tor died at 74.", "Tor"),
        ("Co-sleeps with older brother Tae (8).", "Tae"),
        ("Her sister Thu had carpal tunnel surgery.", "Thu"),  # a weekday's letters, then a verb
        ("Her friend An from high school visits.", "An"),  # an article is never followed by "from"
    ],
)
def test_a_short_name_after_a_relation(lexicon, text: str, name: str) -> None:
    assert (name, "PATIENT") in found(lexicon, text)


@pytest.mark.parametrize(
    "text",
    [
        "Mother Ca breast at 60.", "Mother Hx of lupus.", "Their pastor Rev. Odom visits.", "Listed as Baby Boy at birth.",
        "Her sister An MRI was normal.",
        "Visits from her sister Thu and Fri.",
    ],
)
def test_no_short_name_after_a_relation_when_an_abbreviation_title_or_placeholder(lexicon, text: str) -> None:
    assert not any(t in {"PATIENT", "DOCTOR"} and len(v) <= 3 for v, t in found(lexicon, text))


def test_hygiene_spreads_a_given_name_that_is_a_word_only_where_it_reads_as_a_name() -> None:
    text = ("DUNBAR, WILL\nWill is soft-spoken. Will call back tomorrow. Georgia and Will arrived; will do. "
            "Will became tearful.")
    start = text.index("WILL")
    out = build_hygiene().clean(text, [_span(0, start + 4, PhiType.PATIENT)])
    spread = [s.start for s in out if s.start > start]
    # not the modal, not lower case; an irregular past tense after it is said of a person
    assert spread == [text.index("Will is"), text.index("Will arrived"), text.index("Will became")]


def test_hygiene_does_not_spread_a_surname_that_is_a_word() -> None:
    # "Hearing" is a surname in the census lists, never a given name: a tagger's false person stays alone.
    text = "Newborn Hearing Screening Program. The Hearing clinic called."
    start = text.index("Hearing")
    out = build_hygiene().clean(text, [_span(start, start + 7, PhiType.DOCTOR)])
    assert len(out) == 1


def test_hygiene_does_not_spread_two_letter_initials_or_words() -> None:
    # Initials in capitals ("RV") and two-letter words that are no given name ("Ox") stay where found.
    text = "Echo read by RV. RV size normal. Ox called; Ox is also a word here."
    rv, ox = text.index("RV"), text.index("Ox")
    spans = [_span(rv, rv + 2, PhiType.DOCTOR), _span(ox, ox + 2, PhiType.PATIENT, source="lexicon")]
    out = build_hygiene().clean(text, spans)
    assert len(out) == 2


@pytest.mark.parametrize(
    ("text", "value", "type_"),
    [
        ("Wound care reviewed.\n-- kbw", "kbw", "DOCTOR"),
        ("Plan as above.\nMT/rs\n", "MT/rs", "DOCTOR"),
        ("Reviewed and agree. /ss/ T. Abernathy-Reyes", "T. Abernathy-Reyes", "DOCTOR"),
    ],
)
def test_signoffs(text: str, value: str, type_: str) -> None:
    assert (value, type_) in found(build_rule_detector(), text)


def test_list_answers_are_not_signoffs() -> None:
    assert found(build_rule_detector(), "Fever\n- no\nChills\n- yes") == set()


def test_facility_short_forms(lexicon) -> None:
    text = "Transferred from Larkspur Valley Medical Center (LVMC). LVMC notes reviewed; LV function normal."
    values = found(lexicon, text)
    assert ("LVMC", "HOSPITAL") in values and not any(v == "LV" for v, _ in values)


@pytest.mark.parametrize("word", ["called", "Reviewed", "answering", "dictated", "stopped", "carried", "making", "guidelines"])
def test_inflected_ordinary_words_are_words(word: str) -> None:
    assert load_lexicons().is_word(word)


@pytest.mark.parametrize("word", ["Ximena", "Okafor", "Fleming", "bed"])
def test_names_and_short_stems_are_not_inflections(word: str) -> None:
    # "bed" is a word in its own right, not "b" + "ed": stems shorter than three letters are not tried.
    lex = load_lexicons()
    assert lex.is_word(word) == (word.lower() in lex.common_words)


@pytest.mark.parametrize(
    ("text", "value", "kept"),
    [
        ("Portal messages come from kbrannigan42 most nights.", "kbrannigan42", True),
        ("Signed in as tvoss under the clinic account.", "tvoss", True),
        ("Her forum handle is moth_and_ember.", "moth_and_ember", True),
        ("Chart from the night shift: passed care to chuck at 1900.", "chuck", True),  # a first name, lower case
        ("Brought in by neighbour Osgood (8) and his mother.", "Osgood (8", True),  # a name and an age inside
        # A user name has no blank: ordinary words and a short number are a measurement
        # (deid_core.trim keeps only handle-shaped parts, and numbers of five digits or more).
        ("Bicarbonate 14, serum osmolality 310 today.", "serum osmolality 310", False),
        ("Fundus photographs attached; slides to follow.", "slides", False),
        ("She keeps a journal by the bed.", "journal", False),
        ("Left her pills on the nightstand again.", "nightstand", False),  # English, if no 1934 dictionary word
        ("| cashew | 11 | 30 |", "cashew", False),
        ("Father, 34, lineman with the power co-op.", "lineman", True),  # an occupation the tagger mistyped
        ("Deductible is $250 this year.", "$250", False),
        ("Copy sent to billing UR today.", "billing UR", False),
        ("Took it at noon with applesauce.", "applesauce.", False),  # a word and the full stop
        ("Entered d.m.y by the front desk.", "d.m.y", False),  # letters joined by dots
        ("Exit-seeking 1 (prev 4) this week.", "prev 4", False),  # an abbreviation and a count
        ("Reconstruction: hepaticojejunostomy, then drains.", "hepaticojejunostomy", False),  # a clinical word
        ("flowsheet comment - ashbury 4 - 11/9/2023", "ashbury 4", True),  # a lower-case ward and its number
    ],
)
def test_hygiene_keeps_tagger_user_names_only_when_handle_shaped(text: str, value: str, kept: bool) -> None:
    start = text.index(value)
    span = _span(start, start + len(value), PhiType.USERNAME)
    assert build_hygiene().clean(text, [span]) == ([span] if kept else [])
    evidence = _span(start, start + len(value), PhiType.USERNAME, source="rules")
    assert build_hygiene().clean(text, [evidence]) == [evidence]


@pytest.mark.parametrize(
    ("text", "value", "kept"),
    [
        ("Her brother is a glassblower in Maine.", "glassblower", True),  # an agent noun
        ("He retired as a tugboat pilot last year.", "tugboat pilot", True),  # a listed occupation's head
        ("Works nights as a cargo dispatcher.", "cargo dispatcher", True),
        ("Her son works at hollister llc downtown.", "hollister llc", True),  # a firm the tagger mistyped
        ("Describes him as a gentle, curious boy.", "gentle", False),
        ("She will stay a couple of weeks.", "couple", False),
        ("A kayak paddle struck his shin.", "kayak", False),
    ],
)
def test_hygiene_keeps_tagger_professions_only_with_a_job_head(text: str, value: str, kept: bool) -> None:
    start = text.index(value)
    span = _span(start, start + len(value), PhiType.PROFESSION)
    assert build_hygiene().clean(text, [span]) == ([span] if kept else [])
    evidence = _span(start, start + len(value), PhiType.PROFESSION, source="lexicon")
    assert build_hygiene().clean(text, [evidence]) == [evidence]


@pytest.mark.parametrize(
    ("text", "value", "kept"),
    [
        ("Her father speaks Tagalog at home.", "Tagalog", False),
        ("The rosary was said in Portuguese.", "Portuguese", False),
        ("Seen with Mrs. French at the bedside.", "French", True),  # a title makes it a surname
    ],
)
def test_hygiene_drops_tagger_languages_taken_for_people(text: str, value: str, kept: bool) -> None:
    start = text.index(value)
    span = _span(start, start + len(value), PhiType.PATIENT)
    assert build_hygiene().clean(text, [span]) == ([span] if kept else [])


def test_a_naming_cue_before_a_language_is_no_name(lexicon) -> None:
    assert words(lexicon, "He prefers Vietnamese for consent discussions.") == set()
    assert "Teddy" in words(lexicon, "He prefers to be called Teddy.")


@pytest.mark.parametrize(
    ("text", "value", "type_", "kept"),
    [
        ("Arrived as: UNKNOWN, UNKNOWN per registration.", "UNKNOWN, UNKNOWN", PhiType.PATIENT, False),
        ("58 yo F      Clinic # 44-1802", "F      Clinic", PhiType.PATIENT, False),
        ("Her wife Constance drove her in.", "Constance", PhiType.PATIENT, True),
        ("Wife drives her to every visit.", "Wife", PhiType.PATIENT, False),
        ("Signed: Oluwaseun Adebayo, MDiv, BCC, chaplain", "BCC", PhiType.DOCTOR, False),
        ("Linnea Sjoberg, MS, CCC-SLP   ext 5512", "CCC", PhiType.STATE, False),  # "MS" here is no title
        ("Mae Obi, RN, CWON   pager 3317", "CWON", PhiType.STATE, False),
        ("Reviewed with Maggie Abernathy (HCP) today.", "HCP", PhiType.PATIENT, False),
        ("Dictated by Dr. Ogunleye.\n-- cnm", "cnm", PhiType.DOCTOR, True),  # sign-off initials, no comma
        ("Payer: Medicaid, subscriber on file.", "Medicaid", PhiType.PATIENT, True),  # not after a comma
    ],
)
def test_hygiene_drops_tagger_people_without_name_words(text: str, value: str, type_: PhiType, kept: bool) -> None:
    start = text.index(value)
    span = _span(start, start + len(value), type_)
    out = build_hygiene().clean(text, [span])
    assert bool(out) == kept, out


def test_hygiene_does_not_spread_a_language() -> None:
    text = "Swedish is his first language. Interpreter (Swedish, Birgitta) booked; Birgitta called."
    start = text.index("Swedish, Birgitta")
    out = build_hygiene().clean(text, [_span(start, start + 17, PhiType.PATIENT, source="lexicon")])
    assert sorted(text[s.start : s.end] for s in out) == ["Birgitta", "Swedish, Birgitta"]


def test_hygiene_does_not_spread_generic_words_of_place_names() -> None:
    text = "Referred to Fennimore Rehab today. Outpatient rehab twice weekly; cardiology and geriatrics agree."
    start = text.index("Fennimore")
    place = Span(start, start + len("Fennimore Rehab"), PhiType.HOSPITAL, 0.7, frozenset({"lexicon"}), "")
    specialty = text.index("Geriatrics".lower())
    dept = Span(specialty, specialty + 10, PhiType.DEPARTMENT, 0.7, frozenset({"lexicon"}), "")
    out = build_hygiene().clean(text + " Fennimore called.", [place, dept])
    assert sorted(text[s.start : s.end] for s in out if s.end <= len(text)) == ["Fennimore Rehab", "geriatrics"]
    assert len(out) == 3  # "Fennimore" spreads to its other mention


@pytest.mark.parametrize(
    ("text", "ward"),
    [
        ("Transferred to Hartwell 6 for telemetry.", True),
        ("Tested on Brackley 3/5 at recall.", False),  # a score
        ("Hearing aids in. Brackley 3 of 5 words.", False),  # the cue ends the sentence before
    ],
)
def test_wards_need_a_cue_in_the_same_sentence(lexicon, text: str, ward: bool) -> None:
    assert any(t == "DEPARTMENT" for _, t in found(lexicon, text)) == ward


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("0900 dr okafor at bedside, plan unchanged.", "okafor"),
        ("dressing changed. rn nakamura aware.", "nakamura"),
    ],
)
def test_lower_case_charts_name_staff_by_surname(lexicon, text: str, name: str) -> None:
    assert name in words(lexicon, text)


@pytest.mark.parametrize("text", ["pt asked about dr appt next week.", "will call dr office tomorrow.", "rn aware of plan."])
def test_lower_case_staff_cues_before_ordinary_words_are_no_names(lexicon, text: str) -> None:
    assert words(lexicon, text) == set()


@pytest.mark.parametrize(
    ("text", "state"),
    [("Her sister called from Springfield, IL this morning.", "IL"), ("Moved from New Bedford, ME in May.", "ME")],
)
def test_state_code_after_a_known_city(lexicon, text: str, state: str) -> None:
    assert (state, "STATE") in found(lexicon, text)


def test_credential_after_a_surname_that_is_a_city_is_no_state(lexicon) -> None:
    # Invented clinicians whose surnames are city names: the code after them is a degree.
    text = "Co-signed by Rosalind Springfield, MD, PhD and Rosalind Tucson, PA on rounds."
    assert not any(t == "STATE" for _, t in found(lexicon, text))


def test_state_codes_alone_are_words(lexicon) -> None:
    assert not any(t == "STATE" for _, t in found(lexicon, "Walked IN to clinic; OR booked, ME notified."))


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("Her partner Ines, a respiratory therapist at the VA, visited.", "respiratory therapist"),  # apposition
        ("Son is a surgical technician in Ohio.", "surgical technician"),  # a modifier after the article
        ("I am a pharmacist at Northstar Drug and this is wrong.", "pharmacist"),  # a patient writing
        ("Retired: former symphony violinist, plays daily.", "symphony violinist"),
        ("Her dad (he's a night baker) works weekends.", "night baker"),  # "he's a": "he is a"
        ("Son Remy, a potato broker in Maine, called.", "potato broker"),
        ("Now works weekends as a hunting guide near Salmon.", "hunting guide"),
        ("Job title: phlebotomist II, Draw Station 4", "phlebotomist"),
        ("daughter Ayan (41, respiratory therapist at another hospital)", "respiratory therapist"),  # after an age
        ("- Mother, Dalia Reyes, 23, home health aide with Sunrise", "home health aide"),
        ("INDICATIONS: 54-year-old middle-school band director from Lowell.", "middle-school band director"),
        ("41-year-old right-handed line cook who works the masa station", "line cook"),
        ("Daughter Halina (an X-ray tech herself, at Lakeside)", "X-ray tech"),  # a reflexive goes on no noun
    ],
)
def test_professions_in_apposition_and_with_a_modifier(lexicon, text: str, job: str) -> None:
    assert (job, "PROFESSION") in found(lexicon, text)


def test_care_team_in_a_list_is_no_profession(lexicon) -> None:
    assert not any(t == "PROFESSION" for _, t in found(lexicon, "Seen with the nurse and a therapist today."))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Transcribed: KW/tb   Doc # 5512", {("KW", "DOCTOR"), ("tb", "DOCTOR")}),
        ("Signatures: MO / EL", {("MO", "DOCTOR"), ("EL", "DOCTOR")}),
        ("Scribe: jlh.", {("jlh", "DOCTOR")}),
        ("Dictated: Dr. Ferreira", set()),  # a title, the name follows
        ("Typed: no", set()),
        ("Signature: pending review", set()),
    ],
)
def test_labelled_initials(text: str, expected: set[tuple[str, str]]) -> None:
    assert {v for v in found(build_rule_detector(), text) if v[1] == "DOCTOR"} == expected


def test_hygiene_keeps_a_long_number_the_tagger_called_a_user_name() -> None:
    # An identifier mistyped as a user name: trimming keeps its digits, and the handle check must not
    # then drop them for having no lower-case letter.
    text = "Request number 4071938 filed."
    start = text.index("number 4071938")
    kept = build_hygiene().clean(text, [_span(start, start + len("number 4071938"), PhiType.USERNAME)])
    assert [text[s.start : s.end] for s in kept] == ["4071938"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Grandson Nils visits after school.", "Nils"),  # first names a 1990 US list lacks
        ("Kids: Ximena, Diego and Sofi.", "Ximena"),
        ("Friend Oksana drives her to dialysis.", "Oksana"),
    ],
)
def test_international_first_names_are_known(lexicon, text: str, name: str) -> None:
    assert name in words(lexicon, text)


def test_a_specialty_before_a_first_name_is_no_inverted_name(lexicon) -> None:
    text = "Dr. Carpenter, Urology, Crawford General Hospital, Miami."
    assert not any(v.startswith("Urology") for v in words(lexicon, text))
    assert "Lindqvist, Harold E" in words(lexicon, "Patient: Lindqvist, Harold E.")


@pytest.mark.parametrize(
    ("text", "name"),
    [("Provider: Dr. Lee, PA-C     MA: tiffani\n\nCC: dog bite", "tiffani"), ("Assistant: yesenia (DA)", "yesenia")],
)
def test_a_staff_role_label_names_its_person_in_lower_case(lexicon, text: str, name: str) -> None:
    assert (name, "DOCTOR") in found(lexicon, text)


def test_a_lower_case_unit_is_no_title(lexicon) -> None:
    assert words(lexicon, "ECG: sinus, QRS 158 ms. Repeat echo today.") == set()
    assert "Okafor" in words(lexicon, "Seen with Ms. Okafor today.")


def test_accented_names_are_looked_up_by_their_base_letters(lexicon) -> None:
    assert "Teófilo Archuleta" in words(lexicon, "CHW: Teófilo Archuleta visited.")
    assert "Máire" in words(lexicon, "Mother Máire, ovarian ca at 52.")


@pytest.mark.parametrize(
    ("text", "opener", "kept"),
    [
        ("Diet history per dad. Older sister Ingrid eats with her.", "Older", False),
        ("Ravi Castellano, MD\nSharp pain has resolved since the visit.", "Sharp", False),
        # a first name or a name no dictionary lists is still the person after the break
        ("Diet history per dad. Ingrid eats with her.", "Ingrid", True),
        ("Call from the son.\nOyelaran says she fell twice.", "Oyelaran", True),
    ],
)
def test_a_cue_before_a_sentence_break_names_no_ordinary_word(lexicon, text: str, opener: str, kept: bool) -> None:
    assert (opener in words(lexicon, text)) is kept


@pytest.mark.parametrize(
    ("text", "airport"),
    [
        ("Her son will pick her up at LaGuardia on Friday.", "LaGuardia"),
        ("Works as a baggage handler at O’Hare, nights.", "O’Hare"),
        ("She plans to fly into DEN next week to see family.", "DEN"),
        ("Flight from BOS was delayed; arrived late.", "BOS"),
    ],
)
def test_airports(lexicon, text: str, airport: str) -> None:
    assert (airport, "LOCATION-OTHER") in found(lexicon, text)


@pytest.mark.parametrize(
    "text",
    [
        "SAT 94% on RA; DEN nerve intact.",  # codes with no word of air travel
        "IND: none. Flight of stairs to bedroom.\nSEA reviewed.",  # the travel word on another line
    ],
)
def test_airport_codes_need_air_travel(lexicon, text: str) -> None:
    assert not any(t == "LOCATION-OTHER" for _, t in found(lexicon, text))


@pytest.mark.parametrize(
    ("tail", "spread", "type_"),
    [
        ("Reply from ottoline.b at 9 pm.", "ottoline.b", PhiType.USERNAME),
        ("Login b.ottoline reset.", "b.ottoline", PhiType.USERNAME),
        ("Mail ottoline.b@example.org sent.", "ottoline", PhiType.PATIENT),  # an e-mail is the rules' to find
        ("Saw Ottoline.She is well.", "Ottoline", PhiType.PATIENT),  # a missing space, no login
    ],
)
def test_a_spread_name_inside_a_login_takes_the_login(tail: str, spread: str, type_: PhiType) -> None:
    text = "Patient Ottoline Brandvik seen. " + tail
    first = text.index("Ottoline")
    out = build_hygiene().clean(text, [_span(first, first + 8, PhiType.PATIENT, source="lexicon")])
    assert (spread, type_) in {(text[s.start : s.end], s.type) for s in out if s.start > first}


@pytest.mark.parametrize(
    ("text", "name", "kept"),
    [
        ("Hx: HTN, CABG, GERD on omeprazole.", "CABG, GERD", False),  # initialisms in a list
        ("PATIENT: LEE, MARGARET   MRN 4455", "LEE, MARGARET", True),  # a short surname in capitals
        ("PATIENT: VOSKUIJLEN, GRETA   MRN 4455", "VOSKUIJLEN, GRETA", True),
    ],
)
def test_last_first_needs_a_surname_not_an_initialism(lexicon, text: str, name: str, kept: bool) -> None:
    assert (name in words(lexicon, text)) is kept


def test_a_cue_ends_at_a_column_gap(lexicon) -> None:
    text = "Relationship: wife   Age: eighty-six\nAttending: Ana Ruiz, MD   Dietitian: on leave"
    assert not {"Age", "Dietitian"} & words(lexicon, text)


def test_cue_words_that_yaml_reads_as_booleans_are_words() -> None:
    """A bare ``on``, ``yes`` or ``no`` in a YAML list is a boolean; quoted, it is the word the cue means."""
    cues = load_lexicons().cues
    assert {"on", "yes", "no"} <= cues["function_words"]
    assert {"on", "off", "yes", "no"} <= cues["not_initials"]
    assert not any({"true", "false"} & words for words in cues.values())


def test_a_professions_noun_phrase_ends_before_a_preposition(lexicon) -> None:
    text = "Her father, a ranch hand on the Bar T spread, visits."
    assert ("ranch hand", PhiType.PROFESSION) in {(text[s.start : s.end], s.type) for s in lexicon.detect(EnrichedNote("t", text))}


def test_transcript_speakers_are_people_and_logins(lexicon) -> None:
    text = (
        "21:14  Rocky:  my chest feels tight\n"
        "21:14  Ifeoma: Hi Rocky, I'm the nurse.\n"
        "02/12 21:15  Rocky:  since dinner\n"
        "21:16  Ifeoma: Any arm pain?\n"
        "07:10 qvaldez: remote into PEM3\n"
        "07:14 qvaldez: printed test band\n"
        "08:00  Plan: continue\n"
        "08:20  premeds: methylprednisolone 40\n"
    )
    got = found(lexicon, text)
    assert {("Rocky", "PATIENT"), ("Ifeoma", "PATIENT"), ("qvaldez", "USERNAME")} <= got
    rocky = [s for s in lexicon.detect(EnrichedNote("n", text)) if text[s.start : s.end] == "Rocky"]
    assert len(rocky) == 3  # both turns and the greeting
    assert not {v for v, _ in got if v in {"Plan", "premeds"}}


@pytest.mark.parametrize(("text", "name"), [
    ("Hub relocated per Betty-Jo (304-555-0172).", "Betty-Jo"),
    ("Family photos; Min-ji to bring her radio.", "Min-ji"),
])
def test_a_hyphenated_given_name_is_a_person(text: str, name: str) -> None:
    spans = build_lexicon_detector().detect(EnrichedNote("t", text))
    assert (name, PhiType.PATIENT) in {(text[s.start : s.end], s.type) for s in spans}


def test_a_hyphenated_town_or_word_pair_is_no_given_name() -> None:
    text = "Moved from Winston-Salem. Long-Term care. Mary-Go-Round."
    spans = build_lexicon_detector().detect(EnrichedNote("t", text))
    assert not any("-" in text[s.start : s.end] for s in spans if s.type is PhiType.PATIENT)


@pytest.mark.parametrize("text", [
    "He is a bakery production supervisor. Enclosed space? Partly.",
    "Reviewed with the radiology tech. Girlfriend Nadege is a CNA.",
])
def test_a_cue_ending_its_sentence_does_not_name_the_next_sentence_s_ordinary_first_word(text: str) -> None:
    spans = build_lexicon_detector().detect(EnrichedNote("t", text))
    assert not [s for s in spans if s.explanation.startswith("cue=") and text[s.start : s.end] in {"Enclosed", "Girlfriend"}]


def test_a_cue_before_a_name_opening_the_next_sentence_still_names_it() -> None:
    text = "Lives with his wife. Marguerite came today."
    spans = build_lexicon_detector().detect(EnrichedNote("t", text))
    assert "Marguerite" in {text[s.start : s.end] for s in spans}


def test_hygiene_keeps_a_tagger_month_and_tenth_day_beside_a_date() -> None:
    text = "Visits 4/8 and 4/10 with the aide; pain 6/10, 7/10 at worst."
    spans = [_span(text.index(v), text.index(v) + len(v), PhiType.DATE) for v in ("4/10", "6/10")]
    kept = build_hygiene().clean(text, spans)
    assert [text[s.start : s.end] for s in kept] == ["4/10"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Outreach van: Colm Brady NP, driver Al   vehicle: Unit 4", "Al"),
        ("Lounge opens 0900, volunteer Al staffing.", "Al"),
    ],
)
def test_a_role_outside_care_names_a_listed_first_name_even_a_word(lexicon, text: str, name: str) -> None:
    assert name in words(lexicon, text)


@pytest.mark.parametrize("text", ["Volunteer Fire Co responded at 0410.", "The driver Said nothing."])
def test_a_role_outside_care_before_no_first_name_names_nothing(lexicon, text: str) -> None:
    assert not words(lexicon, text) & {"Fire", "Said"}


def test_a_name_ends_before_a_form_label_in_capitals_and_before_a_title_on_the_next_line(lexicon) -> None:
    assert words(lexicon, "Pt NWACHUKWU, ADAEZE  MRN TU-5503361  44 F") == {"NWACHUKWU, ADAEZE"}
    assert words(lexicon, "Sincerely,\n\nYonas Gebremedhin\nCase Manager, Reception & Placement") == {"Yonas Gebremedhin"}
    assert words(lexicon, "Spoke with Marguerite\nOstrowski today.") == {"Marguerite\nOstrowski"}
