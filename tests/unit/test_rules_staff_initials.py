"""Staff initials and short staff names: typist initials ending a line, initials before a credential,
lower-case initials or names after a role word. Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def doctors(text: str) -> set[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {text[s.start : s.end] for s in spans if s.type is PhiType.DOCTOR}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Odessa Vrana, DPM    OV/kt\n", {"OV", "kt"}),
        ("Call with questions.\n\n-- PZ 04/23/2026", {"PZ"}),
        ("Nurse line 24/7.\n-- GH RN  3/12/26 14:58", {"GH"}),
        ("Hollis Brand, PhD  /  wq:ze\n", {"wq", "ze"}),
        ("Yours sincerely,\nTomas Rees, MD\nTHR/lq   dictated 4/2/26", {"THR", "lq"}),
        ("Call the nurse line with questions.\n-- GW/pd\nEnclosures: 2", {"GW", "pd"}),
        ("Endocrinology follow-up, signed   LMB/rs", {"LMB", "rs"}),
        ("T. Halloran, PA-C   th/jd", {"th", "jd"}),
        ("Refill due 5/2. KE / LU\n", {"KE", "LU"}),
        ("Wren Ito, CNM\n\nHKL, IBCLC. Latch reviewed.", {"HKL"}),
        ("Triage: Ivo Lund, RN   co-sign mae, CNM", {"mae"}),
        ("Transferred to 4W with RN pq.\n", {"pq"}),
        ("Paulo Serra, MD   scribe h.ono", {"h.ono"}),
        ("Audiologist: Kim Bay, AuD   Student: r. delacroix-moss\n", {"r. delacroix-moss"}),
        ("Scorer: t. abara.\n", {"t. abara"}),
        ("cosigned 11/04/2024 fen", {"fen"}),
        ("Team conference.\nOT (KB): dressing set-up.\nSW (TO): lives with wife.", {"KB", "TO"}),
        ("Speech (JKL) saw him twice.", {"JKL"}),
        ("Start before Labor Day.\nF/u 5/7/2025. AR", {"AR"}),
        ("Command center 314-555-0150.\nsk\n", {"sk"}),
        ("Scheduler to send link.\nECH - signed 11/20/25 14:05", {"ECH"}),
        ("She declined.\n\nSDA - documented 11/14/25 15:05", {"SDA"}),
        ("Nurse line 360-555-0100.\nDocumented by RDI 11/22/25.", {"RDI"}),
        ("Confidential note written by AN; reviewed with Maya.", {"AN"}),
        ("Nurse line 360-555-0100 x2210.\n\nSH/TO", {"SH", "TO"}),
        ("No PLMs. Scored by EK.\n", {"EK"}),
        ("Radiologist attestation: KM\n", {"KM"}),
        ("Ransome, DDS   hyg: raquel   asst: DM\nins: Granite Peak", {"DM"}),
        ("Signed: HK / RN educator", {"HK"}),
        ("0210 pt asleep, used unit phone. -qm\n0300 vitals", {"qm"}),
        ("0255 to rm 9, monitor on. --wt\n", {"wt"}),
        ("Seen 02/23/2026 1300   --zo\n", {"zo"}),
        ("NOTES\n03/02 QV: Ms. Lowe lost her ride.\n0715 KSB: handoff done", {"QV", "KSB"}),  # opening log entries
        ("| 1 | 1900 | norepi 0.04 | gx\n| 2 | 2000 | norepi 0.06 | gx\n", {"gx"}),  # a column of initials
    ],
)
def test_staff_initials_and_short_names(text: str, expected: set[str]) -> None:
    assert expected <= doctors(text)


@pytest.mark.parametrize(
    "text",
    [
        "Staffing: RN/BSN\n",  # two credentials
        "Glucose 140 mg/dL\n",  # a unit
        "Route changed.   PO/IV\n",  # routes
        "Hearing test by Mara Fell, AuD / kt",  # "AuD" is a credential, not initials
        "Asked about it.   yes/no",  # a choice
        "Labs reviewed. AST/ALT\n",  # paired tests
        "Dana Pike, MSN, RN",  # a list of credentials
        "Rafe Holt, MS, CGC",  # a list of credentials
        "ICU, RN at bedside",  # a unit
        "RN aware.",  # the sentence goes on
        "tech ok.",
        "handed over to RN on arrival",
        "Tech: CT 3 done. Signed: MD. asst: PO",  # a study, a credential and a route after signing fields
        "Pain controlled. - ok\nAsked again. -- no\n",  # answers after a dash
        "03/06 BP: 120/80\n0715 RR: 18\n4/13/26 11:00  UOA: pending",  # vitals and tests in a log
        "| 1 | 09:10 | pre | 37.0 |\n| 2 | 13:24 | pre | 37.1 |\n| 3 | 14:00 | neg | - |",  # cells that are words
    ],
)
def test_no_staff_initials_in_credentials_units_and_words(text: str) -> None:
    found = doctors(text)
    assert not found & {"RN", "BSN", "mg", "dL", "PO", "IV", "AuD", "yes", "no", "MSN", "MS", "ICU", "aware", "ok", "on", "AST", "ALT",
                        "BP", "RR", "UOA", "pre", "neg"}, found


@pytest.mark.parametrize(
    "text",
    [
        "PT (INR) 14.2 seconds.", "Report given to the RN (PP).", "Nursing (ICU): turned q2h.",
        "Lactate cleared after 3 L\nIVF.\n", "Follow up in clinic.\nok",
        "Transaminases trending down.\nAST/ALT", "Results entered by ICU 11/2.", "EHR - signed by the attending",
    ],
)
def test_a_test_unit_or_word_is_no_initials(text: str) -> None:
    assert doctors(text) == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("EEG tech: R. Adeyemi (initials RA)\n", {"RA"}),
        ("passport reviewed, initialed MA)\n", {"MA"}),
        ("Initials: OB\n", {"OB"}),
    ],
)
def test_capitals_the_text_calls_initials_are_initials_whatever_they_spell(text: str, expected: set[str]) -> None:
    assert expected <= doctors(text)


def test_initials_named_need_capitals_right_after_the_word() -> None:
    assert doctors("initials and date on each page\n") == set()


@pytest.mark.parametrize(("text", "expected"), [
    ("Family visit Thursday.\n-- ME / th", {"ME", "th"}),
    ("cc: chart\nod/kmt", {"od", "kmt"}),
])
def test_a_closing_pair_with_one_half_no_abbreviation_is_two_staff(text: str, expected: set[str]) -> None:
    assert expected <= doctors(text)


@pytest.mark.parametrize("text", ["Continue meds.\nPO/IV", "Discussed options.\nyes/no"])
def test_a_closing_pair_of_abbreviations_or_words_is_no_staff(text: str) -> None:
    assert doctors(text) == set()


@pytest.mark.parametrize(("text", "expected"), [
    ("3/14 ICSI all MII. -sh\n3/15 fert check", {"sh"}),
    ("Parents informed. -ha\n\nEnd of session.", {"ha"}),
    ("Called back, no answer. -ok\n", set()),
])
def test_two_letters_after_a_signing_dash_are_initials_even_when_a_word(text: str, expected: set[str]) -> None:
    assert doctors(text) == expected


def test_the_owners_of_action_items_are_staff() -> None:
    text = "ACTION ITEMS\n- RP: schedule the visit.\n- HL: registry abstract.\n- Next board 3/19."
    assert doctors(text) == {"RP", "HL"}
    numbered = "ACTION ITEMS\n1. TA - update care plan by 4/1.\n2. FH - weekly weights x 4.\n3. Next conference: June."
    assert doctors(numbered) == {"TA", "FH"}
    assert doctors("FOLLOW-UP / ACTIONS\n1. LR - post-fall huddle form by 3/16.\n2. TM - pull the log.") == {"LR", "TM"}


@pytest.mark.parametrize(
    "text",
    [
        "PLAN\n- HTN: lisinopril\n- RP: x",
        "Notes\n- RP: no action heading",
        "ACTION ITEMS\n- BP: recheck",
        "CORRECTIVE ACTION\n1. Night checks q2h.\n2. PT evaluation through the agency.",  # no colon or dash
        "ACTION ITEMS\n1. BP - recheck in a week",  # a clinical abbreviation
        "ACTION ITEMS\n1. PT - gait training\n2. SW - housing forms",  # disciplines
        # No heading: a problem list (abbreviations, words) and a vitals list (colons).
        "1. DM - start metformin\n2. HTN - continue lisinopril\n3. CKD - recheck BMP",
        "1. Prematurity - CPAP\n2. Apnea - caffeine\n3. QX - feeds\n4. Jaundice - lights\n5. ZV - stage 1",
        "- GK: 120/80\n- TW: 88",
        "1. TA - one numbered item alone",
    ],
)
def test_bullets_elsewhere_or_clinical_abbreviations_own_nothing(text: str) -> None:
    assert doctors(text) == set()


def test_a_list_of_owners_needs_no_heading_and_types_all_its_capitals() -> None:
    """Numbered items with a spaced dash, at least two and half of them persons' initials: their list
    is one of owners, so a degree's or an abbreviation's letters there are initials too."""
    assert doctors("Plan\n 1. SA - start budesonide\n 2. MY - new spacer\n 3. Recheck in May.") == {"SA", "MY"}
    assert doctors("1. JA - call family\n2. HP - letter to the shipper\n3. DC - respite options") == {"JA", "HP", "DC"}
    assert doctors("ACTIONS\n1. BA - call the house supervisor\n2. KW - update the board") == {"BA", "KW"}


def test_many_owned_items_are_read_in_linear_time() -> None:
    import time

    items = "".join(f"{i % 90 + 1}. {chr(65 + i % 26)}{chr(66 + i % 20)} - call back\n" for i in range(20_000))
    started = time.perf_counter()
    doctors("ACTION ITEMS\n" + items)
    doctors(items)
    assert time.perf_counter() - started < 10


def test_a_blank_aligned_column_of_initials_on_three_lines_or_more() -> None:
    text = "0745  B     door ajar            kp\n0800  M     breakfast            kp\n0815  T     meds given           kp\n"
    assert doctors(text) == {"kp"}
    assert doctors("0745  dose        mg\n0800  dose        mg\n0815  dose        mg\n") == set()
    assert doctors("0745  B     door ajar            kp\n0800  M     breakfast            kp\n") == set()


def test_lower_case_initials_closing_two_log_entries_or_more_are_staff() -> None:
    text = "2/27 10:05 left vm, no results given. nf\n2/27 11:22 spoke with pt, understands. nf\n3/1 pt no-show.\n"
    assert doctors(text) == {"nf"}
    assert doctors("2/27 left vm. nf\n3/1 pt no-show.\n") == set()  # once: a sentence's last word may be shorthand
    assert doctors("spoke with pt. ok\nleft vm. ok\n") == set()  # a word


def test_capital_initials_closing_log_entries_in_a_note_of_two_such_lines_or_more() -> None:
    text = "11/05/25: fever. Home from daycare. FP\n11/07/25: recovered. Towel on pillow. AN\n01/05/26: doing well."
    assert doctors(text) == {"FP", "AN"}
    assert doctors("11/05/25: home from daycare. FP\n11/07/25: recovered, see MD.\n01/05/26: doing well.") == set()
    assert doctors("Cultures sent. ICU\nStable overnight. IVF\nEnd.") == set()  # clinical abbreviations


def test_a_login_after_a_signing_role_is_a_user_name() -> None:
    found = build_rule_detector().detect(EnrichedNote("t", "S. Farrelly-Osei, MD   scribe: ncabral   clinic x0108"))
    assert [("ncabral", PhiType.USERNAME)] == [("ncabral", s.type) for s in found if s.type is PhiType.USERNAME]
    for text in ("Discussed with RN kelsey.", "teresa mbeki-lowry rn cwon   login", "scribe: present at visit"):
        assert not [s for s in build_rule_detector().detect(EnrichedNote("t", text)) if s.type is PhiType.USERNAME]


@pytest.mark.parametrize(
    ("text", "marks"),
    [
        ("N. Obi-Whitaker, MD, pathology fellow   NOW/it", {"NOW", "it"}),
        ("T. Chikwanha, MLS(ASCP), lead tech.   am/rc", {"am", "rc"}),
        ("W. Verhoeven, MD -- WA/tv", {"WA", "tv"}),
        ("B. Espeland, MD  / BE:pnh   08:55", {"BE", "pnh"}),
        ("R. Diaz, DO, MRO (cert. 22)        GM/lp (MRO assistant)", {"GM", "lp"}),
    ],
)
def test_a_signature_lines_dictation_mark_is_initials_even_as_words(text: str, marks: set[str]) -> None:
    assert marks <= doctors(text)


@pytest.mark.parametrize("text", ["liver panel   AST/ALT (rising) today", "Follow up in clinic.   yes/no 10:30"])
def test_no_dictation_mark_before_a_parenthesis_or_a_time_without_a_signature(text: str) -> None:
    assert not {"AST", "ALT", "yes", "no"} & doctors(text)
