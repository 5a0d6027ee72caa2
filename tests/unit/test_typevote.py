"""The type vote changes types only: a tagger place on a lexicon person's exact multi-word extent."""

from __future__ import annotations

import time

import pytest

from deid_core.typevote import build_type_vote
from schemas import PhiType, Span

TEXT = "Spoke with SW Odalys Fenwick today. Florence visited."
vote_person_types = build_type_vote().vote


def _span(word: str, typ: PhiType, source: str, score: float = 0.9) -> Span:
    start = TEXT.index(word)
    return Span(start, start + len(word), typ, score, frozenset({source}), "")


def test_tagger_organisation_on_a_lexicon_person_becomes_the_person() -> None:
    tagged = _span("Odalys Fenwick", PhiType.ORGANIZATION, "tagger")
    lexical = _span("Odalys Fenwick", PhiType.DOCTOR, "lexicon")
    out = vote_person_types(TEXT, [lexical, tagged])
    assert [(s.start, s.end, s.type) for s in out] == [(lexical.start, lexical.end, PhiType.DOCTOR)] * 2
    assert out[1].sources == frozenset({"tagger"})


def test_one_word_extents_partial_overlaps_and_person_types_keep_the_tagger_type() -> None:
    one = [_span("Florence", PhiType.CITY, "tagger"), _span("Florence", PhiType.PATIENT, "lexicon", 0.6)]
    assert vote_person_types(TEXT, one)[0].type is PhiType.CITY
    partial = [_span("Odalys Fenwick today", PhiType.ORGANIZATION, "tagger"), _span("Odalys Fenwick", PhiType.PATIENT, "lexicon")]
    assert vote_person_types(TEXT, partial)[0].type is PhiType.ORGANIZATION
    person = [_span("Odalys Fenwick", PhiType.PATIENT, "tagger"), _span("Odalys Fenwick", PhiType.DOCTOR, "lexicon")]
    assert vote_person_types(TEXT, person)[0].type is PhiType.PATIENT


def test_spans_of_other_detectors_are_never_retyped() -> None:
    ruled = _span("Odalys Fenwick", PhiType.ORGANIZATION, "rules")
    assert vote_person_types(TEXT, [ruled, _span("Odalys Fenwick", PhiType.PATIENT, "lexicon")])[0].type is PhiType.ORGANIZATION


def test_a_one_word_name_after_a_cue_takes_the_person_type() -> None:
    cued = [_span("Florence", PhiType.CITY, "tagger"), _span("Florence", PhiType.PATIENT, "lexicon", 0.8)]
    assert vote_person_types(TEXT, cued)[0].type is PhiType.PATIENT


def test_two_first_names_joined_by_and_take_the_person_type() -> None:
    text = "Reviewed with Ingrid and Lars today."
    def at(word: str, typ: PhiType, source: str) -> Span:
        start = text.index(word)
        return Span(start, start + len(word), typ, 0.6, frozenset({source}), "")
    spans = [at("Ingrid and Lars", PhiType.ORGANIZATION, "tagger"), at("Ingrid", PhiType.PATIENT, "lexicon"),
             at("Lars", PhiType.PATIENT, "lexicon")]
    assert vote_person_types(text, spans)[0].type is PhiType.PATIENT
    half = [spans[0], spans[1]]  # "Lars" not known as a name: the tagger's type stays
    assert vote_person_types(text, half)[0].type is PhiType.ORGANIZATION


@pytest.mark.parametrize(
    "phrase", ["West Marlowe", "El Salvador", "Maple Hollow High", "Willow Hill General", "Quinn, Martin and Ellis"]
)
def test_phrases_that_say_place_or_firm_keep_the_tagger_type(phrase: str) -> None:
    text = f"She went to {phrase} last year."
    start = text.index(phrase)
    tagged = Span(start, start + len(phrase), PhiType.ORGANIZATION, 0.9, frozenset({"tagger"}), "")
    lexical = Span(start, start + len(phrase), PhiType.PATIENT, 0.6, frozenset({"lexicon"}), "")
    assert vote_person_types(text, [tagged, lexical])[0].type is PhiType.ORGANIZATION


@pytest.mark.parametrize(
    ("text", "name", "tagged", "expected"),
    [
        ("She moved from Ohio in 2010.", "Ohio", PhiType.COUNTRY, PhiType.STATE),
        ("Family still in New Mexico.", "New Mexico", PhiType.CITY, PhiType.STATE),
        ("Emigrated from Portugal in 1990.", "Portugal", PhiType.STATE, PhiType.COUNTRY),
        ("Visited Georgia last year.", "Georgia", PhiType.COUNTRY, PhiType.COUNTRY),  # a state and a country
        ("Lives in Springfield.", "Springfield", PhiType.CITY, PhiType.CITY),
        ("She moved from Ohio in 2010.", "Ohio", PhiType.PATIENT, PhiType.STATE),  # a person that is only a state
        ("Dr. Georgia Banks called.", "Georgia", PhiType.DOCTOR, PhiType.DOCTOR),  # a first name too
        ("Her brother, a welder in Cedar Rapids, helps.", "Cedar Rapids", PhiType.COUNTRY, PhiType.CITY),  # a town
        ("Emigrated from Lebanon in 1990.", "Lebanon", PhiType.COUNTRY, PhiType.COUNTRY),  # a town and a country
        ("Mother flying in from Kumasi.", "Kumasi", PhiType.PATIENT, PhiType.CITY),  # a person that is only a town
        # a town that is also a name is the town after a word for being at or going to a place
        ("Born Enugu; moved to Houston at 9.", "Houston", PhiType.PATIENT, PhiType.CITY),
        ("Her sister Comfort lives in Xenia.", "Xenia", PhiType.PATIENT, PhiType.CITY),
        ("a raisin grower near Selma, helps", "Selma", PhiType.DOCTOR, PhiType.CITY),
        ("Invitation code sent to Austin by e-mail.", "Austin", PhiType.PATIENT, PhiType.PATIENT),  # handed to a person
        ("Questions to Austin at the desk.", "Austin", PhiType.PATIENT, PhiType.PATIENT),  # "to" without travel
        ("Toys left in Sofia's room.", "Sofia", PhiType.PATIENT, PhiType.PATIENT),  # her room
        ("Houston called back.", "Houston", PhiType.PATIENT, PhiType.PATIENT),
    ],
)
def test_region_types_follow_the_gazetteer(text: str, name: str, tagged: PhiType, expected: PhiType) -> None:
    start = text.index(name)
    span = Span(start, start + len(name), tagged, 0.9, frozenset({"tagger"}), "")
    assert vote_person_types(text, [span])[0].type is expected
    ruled = Span(start, start + len(name), tagged, 0.9, frozenset({"rules"}), "")
    assert vote_person_types(text, [ruled])[0].type is tagged


def _at(text: str, word: str, typ: PhiType, source: str, score: float = 0.6) -> Span:
    start = text.index(word)
    return Span(start, start + len(word), typ, score, frozenset({source}), "")


def test_a_role_word_before_a_lexicon_person_is_cut_off_and_the_rest_is_the_person() -> None:
    text = "CCTV request to Lt. Harriet Mobley today."
    out = build_type_vote().vote(text, [
        _at(text, "Lt. Harriet Mobley", PhiType.ORGANIZATION, "tagger", 0.9), _at(text, "Harriet Mobley", PhiType.PATIENT, "lexicon"),
    ])
    assert (text[out[0].start : out[0].end], out[0].type) == ("Harriet Mobley", PhiType.PATIENT)


@pytest.mark.parametrize(
    ("text", "tagged", "person"),
    [
        ("Press inquiries to PIO Ken Albers, by e-mail.", "PIO Ken Albers", "Ken Albers"),
        ("Referral to Sunbeam Partners (BCBA Marcus Lindahl).", "BCBA Marcus Lindahl", "Marcus Lindahl"),
    ],
)
def test_a_role_s_initialism_before_a_lexicon_person_is_cut_off(text: str, tagged: str, person: str) -> None:
    out = build_type_vote().vote(text, [_at(text, tagged, PhiType.HOSPITAL, "tagger", 0.9), _at(text, person, PhiType.PATIENT, "lexicon")])
    assert (text[out[0].start : out[0].end], out[0].type) == (person, PhiType.PATIENT)


@pytest.mark.parametrize(
    ("text", "tagged", "person"),
    [
        ("Ship's doctor, MV Coral Sovereign (Azurline)", "MV Coral Sovereign", "Coral Sovereign"),  # a vessel
        ("Transferred to UCLA Helen Diller pavilion", "UCLA Helen Diller", "Helen Diller"),  # a hospital
        ("Moved to NE Sandy Blvd last year.", "NE Sandy Blvd", "Sandy Blvd"),  # a state's code
    ],
)
def test_capitals_that_name_a_vessel_hospital_or_state_keep_the_tagger_span(text: str, tagged: str, person: str) -> None:
    spans = [_at(text, tagged, PhiType.LOCATION_OTHER, "tagger", 0.9), _at(text, person, PhiType.PATIENT, "lexicon")]
    assert build_type_vote().vote(text, spans)[0] == spans[0]


def test_a_word_that_is_no_role_before_a_person_keeps_the_tagger_span() -> None:
    text = "Moved to NE Sandy Blvd last year."
    spans = [_at(text, "NE Sandy Blvd", PhiType.STREET, "tagger", 0.9), _at(text, "Sandy Blvd", PhiType.PATIENT, "lexicon")]
    assert build_type_vote().vote(text, spans)[0] == spans[0]


def test_a_room_number_before_a_person_is_two_spans() -> None:
    text = "2200  Cot 203  Amos Whitcombe, 67, insulin-dependent."
    out = build_type_vote().vote(text, [
        _at(text, "203  Amos Whitcombe", PhiType.ROOM, "tagger", 0.9), _at(text, "Amos Whitcombe", PhiType.PATIENT, "lexicon"),
    ])
    assert [(text[s.start : s.end], s.type) for s in out[:2]] == [("203", PhiType.ROOM), ("Amos Whitcombe", PhiType.PATIENT)]


def test_a_room_without_digits_that_the_lexicon_reads_as_a_person_is_the_person() -> None:
    text = "CHW: Marquise Thibodeaux (CHW II)"
    out = build_type_vote().vote(text, [
        _at(text, "Marquise Thibodeaux", PhiType.ROOM, "tagger", 0.9), _at(text, "Marquise Thibodeaux", PhiType.PATIENT, "lexicon"),
    ])
    assert out[0].type is PhiType.PATIENT


def test_a_ward_read_into_a_name_and_an_age_is_the_person() -> None:
    text = "He misses his grandkids (Finn 7, Orla 4)."
    ward = _at(text, "Finn 7", PhiType.DEPARTMENT, "tagger", 0.9)
    name, age = _at(text, "Finn", PhiType.PATIENT, "lexicon"), _at(text, "7", PhiType.AGE, "rules", 0.8)
    out = build_type_vote().vote(text, [ward, name, age])
    assert (text[out[0].start : out[0].end], out[0].type) == ("Finn", PhiType.PATIENT)
    assert build_type_vote().vote(text, [ward, name])[0] == ward  # no rule's age: a ward ("Hartwell 4") stays


def test_a_ward_of_a_word_and_a_rule_s_age_is_the_person_though_no_list_knows_the_name() -> None:
    text = "Siblings Ayaan 12, Mahad 8 - separate reviews. Seen on Hartwell 4."
    ward, age = _at(text, "Mahad 8", PhiType.ROOM, "tagger", 0.9), _at(text, "8", PhiType.AGE, "rules", 0.7)
    out = build_type_vote().vote(text, [ward, age])
    assert (text[out[0].start : out[0].end], out[0].type) == ("Mahad", PhiType.PATIENT)
    hartwell = _at(text, "Hartwell 4", PhiType.DEPARTMENT, "tagger", 0.9)
    assert build_type_vote().vote(text, [hartwell, age])[0] == hartwell  # its number is no age


def test_one_surname_in_capitals_read_as_a_place_is_a_patient() -> None:
    text = "0612 INR 9.4 on ESTRADA. Called the manor. Transfer to DENVER. Seen at MERCY."
    spans = [_at(text, w, PhiType.HOSPITAL, "tagger", 0.9) for w in ("ESTRADA", "DENVER", "MERCY")]
    assert [s.type for s in build_type_vote().vote(text, spans)] == [PhiType.PATIENT, PhiType.HOSPITAL, PhiType.HOSPITAL]


@pytest.mark.parametrize(
    ("text", "word", "tagged"),
    [
        ("Changes after 0700 -> call Rosalind or text the desk.", "Rosalind", PhiType.HOSPITAL),
        ("Skyline comm ctr, Tanner (dispatcher)   weather hold", "Tanner", PhiType.COUNTRY),
        ("Greene Meadow Clinic - Rochelle will ask for the releases.", "Rochelle", PhiType.CITY),
        ("23:55 | pharmacy Rosalind x2210 | vanc", "Rosalind", PhiType.CITY),  # an extension after: a person's line
    ],
)
def test_a_lone_given_name_nothing_places_is_a_person(text: str, word: str, tagged: PhiType) -> None:
    assert vote_person_types(text, [_at(text, word, tagged, "tagger")])[0].type is PhiType.PATIENT


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("He moved to Chestnut Hill to be near Winnie.", "Winnie"),  # a preposition before it
        ("She lives at 417 Orchard Glen, Dexter, and drives.", "Dexter"),  # a town in an address: a town too
        ("Questions from Rosalind: may she stay?", "Rosalind"),  # "from"
        ("He drove the Rosalind shuttle.", "Rosalind"),  # an article, and a word it names
        ("Florence visited.", "Florence"),  # a town's name as well
        ("Hope called.", "Hope"),  # an ordinary word as well
    ],
)
def test_a_lone_given_name_keeps_the_place_type_where_a_place_may_be_meant(text: str, word: str) -> None:
    assert vote_person_types(text, [_at(text, word, PhiType.CITY, "tagger")])[0].type is PhiType.CITY


def test_a_tagger_date_named_after_a_month_on_a_lexicon_person_is_the_person() -> None:
    text = "Parent advocate June Ashby from Parent Lanterns."
    out = vote_person_types(text, [_at(text, "June Ashby", PhiType.DATE, "tagger"), _at(text, "June Ashby", PhiType.PATIENT, "lexicon")])
    assert out[0].type is PhiType.PATIENT
    dated = "Seen June 2019 by Ashby."
    spans = [_at(dated, "June 2019", PhiType.DATE, "tagger"), _at(dated, "June 2019", PhiType.PATIENT, "lexicon")]
    assert vote_person_types(dated, spans)[0].type is PhiType.DATE  # a digit: a date


def test_to_places_a_lone_given_name_only_after_a_word_of_travel() -> None:
    handed = "Walked him to the tent, handed off to Idris."
    assert vote_person_types(handed, [_at(handed, "Idris", PhiType.CITY, "tagger")])[0].type is PhiType.PATIENT
    moved = "In 2019 she moved to Idris."
    assert vote_person_types(moved, [_at(moved, "Idris", PhiType.CITY, "tagger")])[0].type is PhiType.CITY


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Breast ca 2017 in Vietnam (Hue).", "Hue"),  # Huế, a town once its accent is dropped
        ("Cellular Therapy Unit, Ellsworth-Keane University Hospital", "Ellsworth"),  # part of a longer name
    ],
)
def test_a_lone_given_name_that_is_a_town_without_accents_or_part_of_a_name_keeps_its_type(text: str, word: str) -> None:
    assert vote_person_types(text, [_at(text, word, PhiType.CITY, "tagger")])[0].type is PhiType.CITY


def test_lone_given_names_on_one_long_line_take_linear_time() -> None:
    text = "call Rosalind or text " * 40_000  # 880,000 characters, no line break
    spans = [Span(i + 5, i + 13, PhiType.CITY, 0.6, frozenset({"tagger"}), "") for i in range(0, len(text), 22)]
    start = time.perf_counter()
    out = vote_person_types(text, spans)
    assert time.perf_counter() - start < 10  # quadratic took about 5 s for a tenth of this
    assert {s.type for s in out} == {PhiType.PATIENT}


def _nth(text: str, word: str, typ: PhiType, source: str, n: int, score: float = 0.9) -> Span:
    start = -1
    for _ in range(n + 1):
        start = text.index(word, start + 1)
    return Span(start, start + len(word), typ, score, frozenset({source}), "")


_NAMED = "Daughter Annelies Brandt at bedside.\nQuestions from Annelies: may she stay until the block?"


def test_a_tagger_place_whose_word_is_an_agreed_person_elsewhere_is_that_person() -> None:
    agreed = [_at(_NAMED, "Annelies Brandt", PhiType.PATIENT, "tagger"), _at(_NAMED, "Annelies Brandt", PhiType.PATIENT, "lexicon", 0.8)]
    later = _nth(_NAMED, "Annelies", PhiType.CITY, "tagger", 1)
    assert vote_person_types(_NAMED, [*agreed, later])[-1].type is PhiType.PATIENT
    ruled = [_at(_NAMED, "Annelies Brandt", PhiType.DOCTOR, "rules")]
    assert vote_person_types(_NAMED, [*ruled, later])[-1].type is PhiType.DOCTOR


def test_a_person_only_one_detector_reads_lends_no_type_to_other_mentions() -> None:
    later = _nth(_NAMED, "Annelies", PhiType.CITY, "tagger", 1)
    for alone in (_at(_NAMED, "Annelies Brandt", PhiType.PATIENT, "tagger"), _at(_NAMED, "Annelies Brandt", PhiType.PATIENT, "lexicon", 0.6)):
        assert vote_person_types(_NAMED, [alone, later])[-1].type is PhiType.CITY


@pytest.mark.parametrize(
    ("text", "person", "word"),
    [
        ("Dr. Anselm Clyde signed. Stocker at a warehouse in Clyde.", "Anselm Clyde", "Clyde"),  # after "in"
        ("Beatrix Olumide, Esq.; Olumide & Ferris LLP", "Beatrix Olumide", "Olumide"),  # a firm's name
        ("Dr. Nell Urology-Finch (Urology, Green Pines)", "Nell Urology", "Urology"),  # a specialty
        ("Dr. Ruth Ely. Lives in Ruth, Nevada.", "Ruth Ely", "Ruth"),  # a town
    ],
)
def test_a_word_a_person_elsewhere_has_stays_a_place_where_it_reads_as_one(text: str, person: str, word: str) -> None:
    spans = [_at(text, person, PhiType.DOCTOR, "rules"), _nth(text, word, PhiType.CITY, "tagger", 1)]
    assert vote_person_types(text, spans)[-1].type is PhiType.CITY


def test_a_tagger_date_of_one_word_said_twice_is_a_nickname() -> None:
    text = 'Son Rodolfo "Jun-Jun" dela Cruz Jr. flew in Jun-Jul.'
    spans = [_at(text, "Jun-Jun", PhiType.DATE, "tagger", 0.9), _at(text, "Jun-Jul", PhiType.DATE, "tagger", 0.9)]
    assert [s.type for s in vote_person_types(text, spans)] == [PhiType.PATIENT, PhiType.DATE]


def test_a_place_whose_possessive_names_a_relative_is_a_person() -> None:
    text = "05:30 Chaska's cousin Wade called. Chicago's sister city. Denver's mayor."
    spans = [_at(text, w, PhiType.CITY, "tagger", 0.9) for w in ("Chaska", "Chicago", "Denver")]
    assert [s.type for s in vote_person_types(text, spans)] == [PhiType.PATIENT, PhiType.CITY, PhiType.CITY]


def test_a_one_word_place_that_names_a_family_is_a_person() -> None:
    text = "Card from the Okafor family today. Staying at the Cardinal House family lodging."
    spans = [_at(text, "Okafor", PhiType.HOSPITAL, "tagger", 0.9), _at(text, "Cardinal House", PhiType.LOCATION_OTHER, "tagger", 0.9)]
    assert [s.type for s in vote_person_types(text, spans)] == [PhiType.PATIENT, PhiType.LOCATION_OTHER]
    text = "Wes updated the Tran family in surgical waiting."  # the article read into the place
    out = vote_person_types(text, [_at(text, "the Tran", PhiType.LOCATION_OTHER, "tagger", 0.9)])
    assert [(text[s.start : s.end], s.type) for s in out] == [("Tran", PhiType.PATIENT)]


def test_a_tagger_date_opening_with_a_given_name_s_possessive_is_the_person_and_the_date() -> None:
    text = "Car seat installed in Kevin's 2011 Ford Focus. June's teacher called. In June's heat."
    spans = [_at(text, "Kevin's 2011", PhiType.DATE, "tagger", 0.9), _at(text, "June", PhiType.DATE, "tagger", 0.9)]
    out = vote_person_types(text, spans)
    assert [(text[s.start : s.end], s.type) for s in out] == [
        ("Kevin", PhiType.PATIENT), ("2011", PhiType.DATE), ("June", PhiType.PATIENT),
    ]


def test_a_tagger_identifier_ending_in_a_given_name_is_the_identifier_and_the_person() -> None:
    text = "lost NM driver's license 103771940 - Manny to help. Lot HX4471B Humira, exp 09/2027."
    spans = [_at(text, "103771940 - Manny", PhiType.LICENSE, "tagger", 0.9), _at(text, "HX4471B Humira", PhiType.DEVICE, "tagger", 0.9)]
    out = vote_person_types(text, spans)
    assert [(text[s.start : s.end], s.type) for s in out] == [
        ("103771940", PhiType.LICENSE), ("Manny", PhiType.PATIENT), ("HX4471B Humira", PhiType.DEVICE),
    ]


def test_person_shapes_take_linear_time_on_long_tagger_spans() -> None:
    for text in ("1" * 200_000, "1" + " " * 200_000 + "Manny", "Jun-" * 50_000):
        spans = [Span(0, len(text), kind, 0.9, frozenset({"tagger"}), "") for kind in (PhiType.IDNUM, PhiType.DATE)]
        start = time.perf_counter()
        vote_person_types(text, spans)
        assert time.perf_counter() - start < 5  # the identifier pattern read backwards took minutes


def test_a_person_written_surname_first_that_a_firm_ran_on_from_is_the_person() -> None:
    text = " MENDOZA, REY - cook and deck, 57"
    lexical = _at(text, "MENDOZA, REY", PhiType.PATIENT, "lexicon")
    tagged = _at(text, "MENDOZA, REY -", PhiType.ORGANIZATION, "tagger")
    out = vote_person_types(text, [lexical, tagged])
    assert {(text[s.start : s.end], s.type) for s in out} == {("MENDOZA, REY", PhiType.PATIENT)}
    firm = "Martin, Roman and Ellis LLP"
    persons = [_at(firm, w, PhiType.PATIENT, "lexicon") for w in ("Martin", "Roman", "Ellis")]
    out = vote_person_types(firm, [*persons, _at(firm, firm, PhiType.ORGANIZATION, "tagger")])
    assert out[-1].type is PhiType.ORGANIZATION


def test_a_tagger_span_run_across_a_column_gap_is_split_where_a_column_is_a_person() -> None:
    text = "director: Hank Vosburgh   health center: the Lodge"
    lexical = _at(text, "Hank Vosburgh", PhiType.PATIENT, "lexicon")
    tagged = _at(text, "Hank Vosburgh   health center", PhiType.HOSPITAL, "tagger")
    out = vote_person_types(text, [lexical, tagged])
    assert [(text[s.start : s.end], s.type) for s in out[1:]] == [
        ("Hank Vosburgh", PhiType.PATIENT), ("health center", PhiType.HOSPITAL),
    ]
    tent = "sanctuary space: Moss Tent   medical tent"  # a word ends the lexicon's "person": nothing is cut
    out = vote_person_types(tent, [_at(tent, "Moss Tent", PhiType.PATIENT, "lexicon"),
                                   _at(tent, "Moss Tent   medical", PhiType.HOSPITAL, "tagger")])
    assert (tent[out[1].start : out[1].end], out[1].type) == ("Moss Tent   medical", PhiType.HOSPITAL)


@pytest.mark.parametrize(
    ("text", "tagged", "person", "expected"),
    [
        ("Employer: Bosque Verde Unified School District - Nestor is a band director",
         "Bosque Verde Unified School District - Nestor", "Nestor", PhiType.PATIENT),
        ("seen at Harrowgate Digestive Health - Carmel. pt is a tuner",
         "Harrowgate Digestive Health - Carmel", "Carmel", PhiType.HOSPITAL),  # a town's name: not cut
    ],
)
def test_a_tagger_span_run_across_a_spaced_dash_onto_a_person(text: str, tagged: str, person: str, expected: PhiType) -> None:
    out = vote_person_types(text, [_at(text, person, PhiType.PATIENT, "lexicon"), _at(text, tagged, PhiType.HOSPITAL, "tagger")])
    assert any(text[s.start : s.end] == person and s.type is expected for s in out[1:]) or (
        expected is PhiType.HOSPITAL and text[out[1].start : out[1].end] == tagged
    )


def test_a_census_line_s_bed_and_patient_read_as_one_room_are_the_room_and_the_person() -> None:
    text = "610  Haas 88M s/p ORIF.\n- Orchard 3 304 Fairweather, 90, to rehab.\n512 Crane ready\nSuite 210 Baker St"
    spans = [_at(text, "610  Haas 88M", PhiType.ROOM, "tagger", 0.9),
             _at(text, "Orchard 3 304 Fairweather", PhiType.DEPARTMENT, "tagger", 0.9),
             _at(text, "512 Crane", PhiType.ROOM, "tagger", 0.9)]
    out = vote_person_types(text, spans)
    assert [(text[s.start : s.end], s.type) for s in out] == [
        ("610", PhiType.ROOM), ("Haas", PhiType.PATIENT), ("88M", PhiType.ROOM),
        ("Orchard 3 304", PhiType.DEPARTMENT), ("Fairweather", PhiType.PATIENT),
        ("512 Crane", PhiType.ROOM),  # no age and sex after it: a room's name, perhaps
    ]
