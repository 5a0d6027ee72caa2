"""The ``rules`` detector as a whole: span contract, a realistic synthetic note, robustness, speed."""

from __future__ import annotations

import time

import pytest

from deid_core.detect.base import Detector
from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType

T = PhiType

# Synthetic: every name, number and place below is invented.
NOTE = """DISCHARGE SUMMARY
Patient: [redacted]    MRN: 4471982    Acct #: 99012345    Unit No: 556-21-90
Admission Date: 03/05/2014    Discharge Date: 03/09/2014
Attending: Dr. Smith, Pager 41235. PCP phone (617) 555-0142, fax 617-555-0199.

HISTORY OF PRESENT ILLNESS: Mr. X is a 72-year-old man with a history of CHF (EF 35-40%), type 2 diabetes
(E11.9) since 1998, and CAD s/p CABG in 2009 who presents on 3/4 after a fall at home on Monday. He was last
seen in clinic on February 12th, 2014. Per his daughter (cell 555-2231) he had been doing well until
Christmas, when he developed increasing dyspnea on exertion. He denies chest pain. Pain 0/10 at rest.

PAST MEDICAL HISTORY: HTN, HLD, DM2, CKD stage 3 (Cr 1.8 baseline), s/p L4-L5 laminectomy (2005).
Pacemaker serial PJN123456 placed Mar 2012. Parkinson disease dx spring 2010.

MEDICATIONS: metoprolol 25 mg PO bid, lisinopril 10 mg daily, furosemide 40 mg PO q12h,
insulin glargine 20 units qhs, aspirin 81 mg daily, 1/2 tab of atorvastatin 40 mg qhs.

PHYSICAL EXAM: T 98.6 F, HR 72, BP 132/84, RR 18, SpO2 96% on 2 L NC, Wt 82 kg.
Gen: elderly man in NAD. CV: RRR, Grade 2/6 systolic murmur at LUSB. Lungs: bibasilar crackles.
Ext: 1+ edema bilaterally. Neuro: GCS 15, strength 5/5 throughout.

LABS: Na 135, K 4.1, Cr 1.9, BUN 32, WBC 8.2, Hgb 10.2, Plt 210, BNP 1250, INR 1.1.

HOSPITAL COURSE: He was diuresed with IV furosemide 40 mg x 2 days with improvement. Echo on 2014-03-06
showed EF 30-35%. Cardiology (ext. 4521) was consulted. He was seen by PT who recommended home with
services. His wife, who is in her 90s, will help; she can be reached at 617.555.0175.

DISPOSITION: Home at 45 Oak Avenue Apt 4B, Boston, MA 02114. Follow-up with Dr. Smith on March 20, 2014
at 2:30 pm. Patient portal: https://portal.example.org/login. Questions: care.team@example.org.
Insurance: Medicare 1EG4-TE5-MK73. SSN on file: 123-45-6789.
"""

EXPECTED = {
    ("4471982", T.MEDICALRECORD), ("99012345", T.ACCOUNT), ("556-21-90", T.MEDICALRECORD),
    ("03/05/2014", T.DATE), ("03/09/2014", T.DATE), ("41235", T.PHONE), ("(617) 555-0142", T.PHONE),
    ("617-555-0199", T.FAX), ("72", T.AGE), ("1998", T.DATE), ("2009", T.DATE), ("3/4", T.DATE),
    ("Monday", T.DATE), ("February", T.DATE), ("February 12th, 2014", T.DATE), ("555-2231", T.PHONE),
    ("Christmas", T.DATE), ("2005", T.DATE), ("PJN123456", T.DEVICE), ("Mar 2012", T.DATE),
    ("spring 2010", T.DATE), ("2010", T.DATE), ("2014-03-06", T.DATE), ("4521", T.PHONE), ("90s", T.AGE),
    ("617.555.0175", T.PHONE), ("45 Oak Avenue Apt 4B", T.STREET), ("Boston", T.CITY), ("MA", T.STATE),
    ("02114", T.ZIP), ("March", T.DATE), ("March 20, 2014", T.DATE),
    ("https://portal.example.org/login", T.URL), ("care.team@example.org", T.EMAIL),
    ("1EG4-TE5-MK73", T.HEALTHPLAN), ("123-45-6789", T.SSN),
}


def detect(text: str) -> list:
    return build_rule_detector().detect(EnrichedNote("n1", text))


def test_detector_contract() -> None:
    detector = build_rule_detector()
    assert isinstance(detector, Detector)
    assert detector.name == "rules"
    spans = detector.detect(EnrichedNote("n1", NOTE))
    assert spans
    for span in spans:
        assert span.sources == frozenset({"rules"})
        assert span.explanation.startswith("pattern=")
        assert 0 <= span.start < span.end <= len(NOTE)
        assert 0.0 < span.score <= 1.0


def test_mixed_note_finds_exactly_the_expected_phi() -> None:
    assert len(NOTE) > 1500
    got = {(NOTE[s.start : s.end], s.type) for s in detect(NOTE)}
    assert got == EXPECTED


def test_mixed_note_leaves_clinical_values_alone() -> None:
    tagged = {NOTE[s.start : s.end] for s in detect(NOTE)}
    for clinical in ("132/84", "98.6", "35-40%", "E11.9", "L4-L5", "0/10", "2/6", "5/5", "1/2", "Cr 1.8", "40 mg"):
        assert not any(clinical in t for t in tagged), clinical


def test_exact_duplicates_reported_once() -> None:
    spans = detect("VIN 1HGCM82633A004352")
    keys = [(s.start, s.end, s.type) for s in spans]
    assert len(keys) == len(set(keys)) == 1


@pytest.mark.parametrize(
    "text",
    ["", " ", "\n\n\t", "é ü ñ 日本語 テキスト 🙂 ∑", "İstanbul İİİ 72 yo", "ﬁ 03/05/2014 ß", "\u200b" * 50],
)
def test_does_not_crash_on_odd_text(text: str) -> None:
    for span in detect(text):
        assert 0 <= span.start < span.end <= len(text)


def test_offsets_are_str_offsets_after_unicode() -> None:
    text = "日本語🙂 seen 03/05/2014"
    [span] = detect(text)
    assert text[span.start : span.end] == "03/05/2014"


@pytest.mark.parametrize(
    "text",
    [
        "a" * 200_000,
        "1" * 200_000,
        "1/" * 100_000,
        "a." * 100_000,
        "a@" * 100_000,
        ":" * 200_000,
        "1:" * 100_000,
        "MRN " + " " * 200_000 + "123",
        "Main " * 40_000,
        "1 " * 100_000,
        "Mar " * 50_000,
        "x" * 100_000 + "@example.com",
        "seventy " * 25_000,
        "123-" * 50_000,
        # A cue word, then a long run of blanks: an optional mark between two runs of blanks
        # ("bed[ \t]*#?[ \t]*") was read every way (quadratic).
        *(cue + " " * 200_000 + "y" for cue in ("bed", "P.O. Box", "RR 2, Box", "Op", "room", "ext", "Rm.", "called")),
        "Apt" + " " * 200_000 + "#",
        "surgery on:" + " " * 200_000,
    ],
)
def test_pathological_long_lines_stay_linear(text: str) -> None:
    started = time.perf_counter()
    detect(text)
    assert time.perf_counter() - started < 3.0


def test_long_note_throughput_sanity() -> None:
    # Generous floor (the measured rate is > 1M chars/s); catches an accidental quadratic regex.
    text = (NOTE * 60)[:120_000]
    detector = build_rule_detector()
    note = EnrichedNote("big", text)
    started = time.perf_counter()
    spans = detector.detect(note)
    elapsed = time.perf_counter() - started
    assert len(spans) > 1000
    assert len(text) / elapsed > 150_000


@pytest.mark.parametrize(
    "text",
    ["Present:" + " " * 200_000 + "x", "- " + " " * 200_000 + "RP:", "ACTION ITEMS\n-" + " " * 200_000, "An" + " " * 200_000 + "is"],
)
def test_long_blank_runs_stay_linear(text: str) -> None:
    started = time.perf_counter()
    detect(text)
    assert time.perf_counter() - started < 3.0
