"""DATE rules: surface forms tagged exactly, numeric look-alikes left alone."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def found(text: str) -> set[tuple[str, PhiType]]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {(text[s.start : s.end], s.type) for s in spans}


def dates(text: str) -> set[str]:
    return {t for t, typ in found(text) if typ is PhiType.DATE}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Admitted 03/05/2014.", "03/05/2014"),
        ("seen 3-5-14 in clinic", "3-5-14"),
        ("on 2014.03.05 we", "2014.03.05"),
        ("echo 2014-03-05 showed", "2014-03-05"),
        ("at 2014-03-05T10:22 the", "2014-03-05T10:22"),
        ("seen on March 5th, 2014 by", "March 5th, 2014"),
        ("seen 5 Mar 2014 by", "5 Mar 2014"),
        ("seen Mar. 5 by", "Mar. 5"),
        ("on the 5th of March we", "5th of March"),
        ("DATE: 05MAR2014", "05MAR2014"),
        ("returns on 3/14 for labs", "3/14"),
        ("since March 2012 he", "March 2012"),
        ("in Mar '09 he", "Mar '09"),
        ("graduated '09 from", "'09"),
        ("diagnosed in 2012 with", "2012"),
        ("diabetic since 1998.", "1998"),
        ("CABG (2009).", "2009"),
        ("last seen 3/2014 here", "3/2014"),
        ("fell on Monday at home", "Monday"),
        ("worse since Christmas.", "Christmas"),
        ("visiting at Thanksgiving", "Thanksgiving"),
        ("on New Year's Day he", "New Year's Day"),
        ("around Easter the", "Easter"),
        ("after Memorial Day he", "Memorial Day"),
        ("diagnosed spring 2010.", "spring 2010"),
        ("until May he was", "May"),
        ("warfarin refilled 3/4 at Walgreens", "3/4"),  # a pharmacy fill date
        ("inhaler last filled 1/10", "1/10"),
    ],
)
def test_date_surface_forms(text: str, expected: str) -> None:
    assert expected in dates(text)


def test_date_span_excludes_preposition() -> None:
    assert dates("Seen on 03/05/2014.") == {"03/05/2014"}


@pytest.mark.parametrize(
    "text",
    [
        "BP 120/80 HR 72",
        "BP 90/60 and BP 110/7",
        "Apgar 8/9",
        "Apgars of 8/9 at birth",
        "pain 7/10 at rest",
        "10/10 pain on arrival",
        "take 1/2 tab daily",
        "about 3/4 of the dose",
        "2/3 of the way",
        "Grade 2/6 murmur",
        "EF 55-60%",
        "20/20 vision",
        "strength 5/5 throughout, 4/5 strength in LLE",
        "GCS 14, NIHSS 3",
        "at 14:30 and 2:30 pm",
        "version 2.5 and E11.9",
        "for 3 days, x 2 weeks, q6h, bid, q 4-6 hrs",
        "5-10 minutes, L4-L5, G3P2",
        "O2 sat 95% on 2/4 L",
        "gave 2000 mg in 2000 patients",
        "He may be discharged. We march on. dec 5 units",
        "1.2.10 and v1.2.3",
        "Mar 5 doses given per MAR 5 doses",
        "12345 and 42 and 2.5",
        "Sentinel nodes 2/14 involved",
        "carcinoma in 3/17 nodes",
        "color plates 11/14 OD and 12/14 OS",
    ],
)
def test_date_look_alikes_not_tagged(text: str) -> None:
    assert dates(text) == set()


def test_invalid_calendar_values_rejected() -> None:
    assert dates("on 13/45/2014 and 2014-13-45") == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Holter done 6/4 by cardiology.", "6/4"),
        ("blood cultures drawn 2/7 x2, no growth", "2/7"),
        ("Foley removed 5/3 without issue", "5/3"),
        ("Plan: final dose 4/8, then stop.", "4/8"),
        ("next dose: 3/5 at the clinic", "3/5"),
        ("two admissions (4/6 and 11/19) for the same", "4/6"),
        ("angiogram planned 10/10 in IR suite 3", "10/10"),
        ("visit rescheduled 6/3, same time", "6/3"),
        ("echo 7/1 ductus closed", "7/1"),  # a study named with its day
        ("ECG 2/10: QTc 438.", "2/10"),
        ("Last BM 3/10. No void trial.", "3/10"),
        ("Home care SN/PT, start 3/10.", "3/10"),
        ("No allergies. LMP 1/10, urine hCG negative.", "1/10"),  # an obstetric date
        ("Lipid panel 02/10; LDL goal < 55.", "02/10"),  # a leading zero: no score is written so
        ("Family meeting 3/12 with the daughters.", "3/12"),  # a meeting or a call and its day
        ("Appt 4/2 moved to the afternoon.", "4/2"),
        ("Visits 6/2 and 6/9 went well.", "6/2"),
        ("Stage 2 heel, found 3/2.", "3/2"),
        ("6/4 New cards delivered\n6/7 Declined lunch\n", "6/4"),  # a log's entries
    ],
)
def test_cued_single_digit_partial_dates(text: str, expected: str) -> None:
    assert expected in dates(text)


@pytest.mark.parametrize(
    "text",
    [
        "dose 1/2 of the usual",
        "last dose 1/2 tab at night",
        "strength 4/5 and 5/5 in the legs",
        "take 1/2 or 3/4 of a tablet",
        "pain 3/5 and 6/10 today",
    ],
)
def test_cue_free_fractions_stay_untagged(text: str) -> None:
    assert not dates(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Former smoker, quit 2004 after his MI.", "2004"),
        ("Lives alone, widowed 2019.", "2019"),
        ("Type 2 DM diagnosed 2015, on metformin.", "2015"),
    ],
)
def test_bare_year_after_life_event(text: str, expected: str) -> None:
    assert expected in dates(text)


def test_life_event_before_a_count_is_no_year() -> None:
    assert not dates("quit 2000 mg of ibuprofen daily")


@pytest.mark.parametrize(
    "text",
    ["Pain at discharge 4/10, numbness resolving.", "pain with stairs 7/10 today", "Pain on admission: 8/10."],
)
def test_pain_scores_after_a_date_cue_stay_scores(text: str) -> None:
    assert not dates(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("chest tube pull 3/4 went well", "3/4"), ("drain removal 2/6 at bedside", "2/6"), ("due 3/10 for labs", "3/10")],
)
def test_procedure_nouns_date_a_fraction(text: str, expected: str) -> None:
    assert expected in dates(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Weight down 2 kg since Mardi Gras.", {"Mardi Gras"}),
        ("Home by Valentine's, she hopes; Valentine's Day party.", {"Valentine's", "Valentine's Day"}),
        ("Visiting family until Eid al-Fitr and Vaisakhi.", {"Eid al-Fitr", "Vaisakhi"}),
        ("Valentine's mother called.", set()),  # a person's possessive
    ],
)
def test_more_holidays(text: str, expected: set[str]) -> None:
    assert set(dates(text)) == expected


@pytest.mark.parametrize(
    "text",
    ["Parent advocate June Ashby from the county.", "Wife June (82) and daughters at bedside.", "caregiver April Peterson drives her", "June's teacher called home."],
)
def test_a_month_that_names_a_person_is_no_date(text: str) -> None:
    assert not dates(text) & {"June", "April"}


@pytest.mark.parametrize(("text", "expected"), [("Seen in June by cardiology.", "June"), ("Last visit April, then none.", "April")])
def test_a_month_alone_is_still_a_date(text: str, expected: str) -> None:
    assert expected in dates(text)
