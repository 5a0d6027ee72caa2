"""Hand-computed scores for every level (token, strict, relaxed, end2) and row kind."""

from __future__ import annotations

import json
import math
import random
import time

import pytest

from deid_tools.eval import EvalInputError, GoldDoc, Metrics, evaluate, scored_tokens, tokenize
from schemas import PhiType, Span

T = PhiType
TEXT = "Ann Lee met Dr Bob Ray on 2020-01-02 in Boston, MRN 12345."


def sp(sub: str, type_: PhiType, text: str = TEXT) -> Span:
    start = text.index(sub)
    return Span(start, start + len(sub), type_)


GOLD = GoldDoc(
    "d1",
    TEXT,
    (
        sp("Ann Lee", T.PATIENT),
        sp("Bob Ray", T.DOCTOR),
        sp("2020-01-02", T.DATE),
        sp("Boston", T.CITY),
        sp("12345", T.MEDICALRECORD),
    ),
)
PRED = [
    sp("Ann Lee", T.PATIENT),  # exact, right subtype
    sp("Bob Ray", T.PATIENT),  # exact, right category, wrong subtype
    sp("2020-01-0", T.DATE),  # same start, end one short: end2 and overlap, not strict
    sp("in Boston", T.CITY),  # overlap only
    sp("MRN", T.IDNUM),  # false positive of a HIPAA type
    sp("met", T.PROFESSION),  # false positive of a non-HIPAA type
]


@pytest.fixture(scope="module")
def report():
    return evaluate([GOLD], {"d1": PRED})


def check(m: Metrics, tp: int, fp: int, fn: int, p: float, r: float) -> None:
    assert (m.tp, m.fp, m.fn) == (tp, fp, fn)
    for got, want in ((m.precision, p), (m.recall, r)):
        assert math.isnan(got) if math.isnan(want) else got == pytest.approx(want)


def f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r)


def test_binary_all_rows(report):
    check(report.metric("strict", "ALL"), tp=2, fp=4, fn=3, p=2 / 6, r=2 / 5)
    check(report.metric("end2", "ALL"), tp=3, fp=3, fn=2, p=3 / 6, r=3 / 5)
    check(report.metric("relaxed", "ALL"), tp=4, fp=2, fn=1, p=4 / 6, r=4 / 5)
    assert report.metric("relaxed", "ALL").f1 == pytest.approx(f1(4 / 6, 4 / 5))


def test_hipaa_rows_use_any_type_on_the_other_side(report):
    # Gold HIPAA: Ann Lee, date, Boston, MRN (Bob Ray is a DOCTOR). Predicted HIPAA: all but PROFESSION.
    # "Bob Ray" predicted PATIENT matches gold DOCTOR: a correct HIPAA prediction, no HIPAA gold found.
    check(report.metric("strict", "HIPAA"), tp=1, fp=3, fn=3, p=2 / 5, r=1 / 4)
    check(report.metric("relaxed", "HIPAA"), tp=3, fp=1, fn=1, p=4 / 5, r=3 / 4)
    check(report.metric("end2", "HIPAA"), tp=2, fp=2, fn=2, p=3 / 5, r=2 / 4)


def test_category_and_subtype_rows(report):
    check(report.metric("strict", "NAME"), tp=2, fp=0, fn=0, p=1, r=1)
    check(report.metric("strict", "PATIENT"), tp=1, fp=1, fn=0, p=1 / 2, r=1)
    check(report.metric("strict", "DOCTOR"), tp=0, fp=0, fn=1, p=math.nan, r=0)
    assert report.metric("strict", "DOCTOR").f1 == 0.0
    check(report.metric("strict", "DATE"), tp=0, fp=1, fn=1, p=0, r=0)
    check(report.metric("end2", "DATE"), tp=1, fp=0, fn=0, p=1, r=1)
    check(report.metric("relaxed", "LOCATION"), tp=1, fp=0, fn=0, p=1, r=1)
    check(report.metric("relaxed", "CITY"), tp=1, fp=0, fn=0, p=1, r=1)
    check(report.metric("relaxed", "ID"), tp=0, fp=1, fn=1, p=0, r=0)
    check(report.metric("relaxed", "MEDICALRECORD"), tp=0, fp=0, fn=1, p=math.nan, r=0)
    check(report.metric("relaxed", "IDNUM"), tp=0, fp=1, fn=0, p=0, r=math.nan)
    prof = report.metric("strict", "PROFESSION")
    check(prof, tp=0, fp=1, fn=0, p=0, r=math.nan)
    assert prof.f1 == 0.0


def test_token_level(report):
    # Word tokens with a gold label: Ann Lee Bob Ray 2020 01 02 Boston 12345 (9).
    # With a predicted label: met Ann Lee Bob Ray 2020 01 02 in Boston MRN (11); "02" is labelled
    # because the predicted date covers one of its characters.
    check(report.metric("token", "ALL"), tp=8, fp=3, fn=1, p=8 / 11, r=8 / 9)
    check(report.metric("token", "PATIENT"), tp=2, fp=2, fn=0, p=2 / 4, r=1)
    check(report.metric("token", "NAME"), tp=4, fp=0, fn=0, p=1, r=1)
    check(report.metric("token", "DOCTOR"), tp=0, fp=0, fn=2, p=math.nan, r=0)
    check(report.metric("token", "HIPAA"), tp=6, fp=2, fn=1, p=8 / 10, r=6 / 7)
    check(report.metric("token", "DATE"), tp=3, fp=0, fn=0, p=1, r=1)


def test_rows_and_counts(report):
    rows = [(r.kind, r.name, r.gold, r.predicted) for r in report.rows]
    assert rows == [
        ("binary", "ALL", 5, 6),
        ("binary", "HIPAA", 4, 5),
        ("category", "NAME", 2, 2),
        ("type", "PATIENT", 1, 2),
        ("type", "DOCTOR", 1, 0),
        ("category", "PROFESSION", 0, 1),
        ("type", "PROFESSION", 0, 1),
        ("category", "LOCATION", 1, 1),
        ("type", "CITY", 1, 1),
        ("category", "DATE", 1, 1),
        ("type", "DATE", 1, 1),
        ("category", "ID", 1, 1),
        ("type", "MEDICALRECORD", 1, 0),
        ("type", "IDNUM", 0, 1),
    ]
    assert report.documents == 1 and report.documents_without_predictions == 0


def test_metric_lookup(report):
    assert report.metric("strict", "patient") == report.metric("strict", "PATIENT")
    empty = report.metric("token", "SSN")  # valid row, nothing in it
    assert (empty.tp, empty.fp, empty.fn) == (0, 0, 0) and math.isnan(empty.f1)
    assert report.metric("strict", "OTHER") == report.metric("strict", "LOCATION-OTHER")
    with pytest.raises(ValueError, match="unknown level"):
        report.metric("fuzzy", "ALL")
    with pytest.raises(KeyError):
        report.metric("strict", "NOPE")


def test_format_table(report):
    table = report.format_table()
    lines = table.splitlines()
    assert "strict" in lines[0] and "relaxed (overlap)" in lines[0] and "i2b2 (end+-2)" in lines[0]
    by_name = {line.split()[0]: line for line in lines[3:-1]}
    assert list(by_name) == [
        "ALL",
        "HIPAA",
        "NAME",
        "PATIENT",
        "DOCTOR",
        "PROFESSION",
        "LOCATION",
        "CITY",
        "DATE",
        "ID",
        "MEDICALRECORD",
        "IDNUM",
    ]
    # DOCTOR: no predictions, so precision is undefined at every level, recall and F1 are 0.
    assert by_name["DOCTOR"].split()[1:] == ["1", "0"] + ["|", "-", "0.000", "0.000"] * 4
    assert by_name["ALL"].split()[1:6] == ["5", "6", "|", "0.727", "0.889"]
    assert next(line for line in lines if line.startswith("  PATIENT"))
    assert lines[-1].startswith("documents: 1 (0 without predictions)")


def test_to_json_is_strict_json(report):
    data = report.to_json()
    text = json.dumps(data, allow_nan=False)
    rows = {(r["kind"], r["row"]): r for r in json.loads(text)["rows"]}
    doctor = rows[("type", "DOCTOR")]["strict"]
    assert doctor == {"tp": 0, "fp": 0, "fn": 1, "precision": None, "recall": 0.0, "f1": 0.0}
    assert rows[("binary", "ALL")]["relaxed"]["recall"] == pytest.approx(0.8)
    assert data["documents"] == 1


def test_missing_predictions_count_as_none():
    other = GoldDoc("d2", "Call 555-0100 now.", (Span(5, 13, T.PHONE),))
    report = evaluate([GOLD, other], {"d1": PRED})
    assert report.documents_without_predictions == 1
    check(report.metric("strict", "PHONE"), tp=0, fp=0, fn=1, p=math.nan, r=0)
    check(report.metric("strict", "ALL"), tp=2, fp=4, fn=4, p=2 / 6, r=2 / 6)


def test_perfect_predictions_score_one():
    report = evaluate([GOLD], {"d1": list(GOLD.spans)})
    for level in ("token", "strict", "relaxed", "end2"):
        for row in ("ALL", "HIPAA", "NAME", "PATIENT", "DOCTOR", "DATE", "CITY", "MEDICALRECORD"):
            m = report.metric(level, row)
            assert (m.precision, m.recall, m.f1, m.fp, m.fn) == (1, 1, 1, 0, 0), (level, row)


def test_relaxed_matching_is_not_one_to_one():
    text = "Ann Lee and Bo Ray"
    gold = GoldDoc("d", text, (sp("Ann Lee", T.PATIENT, text), sp("Bo Ray", T.PATIENT, text)))
    # One prediction covering both names finds both; a split prediction's halves are both correct.
    merged = evaluate([gold], {"d": [Span(0, len(text), T.PATIENT)]})
    check(merged.metric("relaxed", "ALL"), tp=2, fp=0, fn=0, p=1, r=1)
    check(merged.metric("strict", "ALL"), tp=0, fp=1, fn=2, p=0, r=0)
    split = evaluate([gold], {"d": [Span(0, 3, T.PATIENT), Span(4, 7, T.PATIENT)]})
    check(split.metric("relaxed", "ALL"), tp=1, fp=0, fn=1, p=1, r=1 / 2)
    check(split.metric("token", "ALL"), tp=2, fp=0, fn=2, p=1, r=1 / 2)


def test_end2_tolerance_is_two_characters_at_the_end_only():
    text = "Date 2020-01-02 ok"
    gold = GoldDoc("d", text, (sp("2020-01-02", T.DATE, text),))
    start, end = 5, 15
    for pred_end, hit in ((end + 2, True), (end - 2, True), (end + 3, False), (end - 3, False)):
        report = evaluate([gold], {"d": [Span(start, pred_end, T.DATE)]})
        assert report.metric("end2", "DATE").tp == int(hit), pred_end
    shifted = evaluate([gold], {"d": [Span(start + 1, end, T.DATE)]})
    assert shifted.metric("end2", "DATE").tp == 0
    assert shifted.metric("relaxed", "DATE").tp == 1


def test_token_label_is_earliest_covering_span_and_punctuation_is_skipped():
    text = "Mercy-Grace Hospital, Boston."
    gold = GoldDoc("d", text, (Span(0, 20, T.HOSPITAL), Span(22, 28, T.CITY)))
    # Overlapping predictions: HOSPITAL starts first and labels "Mercy"; "Grace" only by the later span.
    pred = [Span(0, 5, T.HOSPITAL), Span(3, 11, T.PATIENT), Span(20, 22, T.CITY)]  # the last is ", "
    report = evaluate([gold], {"d": pred})
    check(report.metric("token", "HOSPITAL"), tp=1, fp=0, fn=2, p=1, r=1 / 3)
    check(report.metric("token", "PATIENT"), tp=0, fp=1, fn=0, p=0, r=math.nan)
    # ", " holds no word token, so that prediction counts at entity levels only.
    check(report.metric("token", "CITY"), tp=0, fp=0, fn=1, p=math.nan, r=0)
    check(report.metric("strict", "CITY"), tp=0, fp=1, fn=1, p=0, r=0)


def test_tokenizer_keeps_offsets():
    text = "Dr. O'Neil, 12/03 ok"
    toks = tokenize(text)
    assert [text[a:b] for a, b in toks] == ["Dr", ".", "O", "'", "Neil", ",", "12", "/", "03", "ok"]
    assert [text[a:b] for a, b in scored_tokens(text)] == ["Dr", "O", "Neil", "12", "03", "ok"]
    assert scored_tokens(text) == [t for t in toks if text[t.start : t.end][0].isalnum()]


def test_metrics_edge_cases():
    assert math.isnan(Metrics.from_counts(0, 0, 0, 0).f1)
    m = Metrics.from_counts(gold=4, found=0, predicted=0, correct=0)
    assert math.isnan(m.precision) and m.recall == 0 and m.f1 == 0
    m = Metrics.from_counts(gold=4, found=2, predicted=2, correct=2)
    assert (m.tp, m.fp, m.fn, m.precision, m.recall) == (2, 0, 2, 1.0, 0.5)
    assert m.f1 == pytest.approx(2 / 3)


def test_predictions_for_unknown_ids_are_an_error():
    with pytest.raises(EvalInputError, match=r"1 document id\(s\) not in gold: 'zz'"):
        evaluate([GOLD], {"d1": PRED, "zz": []})


def test_spans_outside_the_text_are_an_error():
    with pytest.raises(EvalInputError, match=r"predictions for document 'd1': span 50:99 outside the text"):
        evaluate([GOLD], {"d1": [Span(50, 99, T.DATE)]})
    bad_gold = GoldDoc("g", "short", (Span(0, 9, T.DATE),))
    with pytest.raises(EvalInputError, match="gold document 'g'"):
        evaluate([bad_gold], {})


def test_duplicate_gold_ids_are_an_error():
    with pytest.raises(EvalInputError, match="duplicate"):
        evaluate([GOLD, GOLD], {})


@pytest.mark.slow
def test_thousand_three_kilobyte_documents_evaluate_in_seconds():
    rng = random.Random(7)
    words = ["pain", "noted", "Smith", "2091-03-04", "MRN", "4471", "Boston", "stable", "follow", "up,"]
    types = [T.PATIENT, T.DOCTOR, T.DATE, T.CITY, T.MEDICALRECORD, T.PHONE, T.HOSPITAL, T.AGE]
    gold, preds = [], {}
    for n in range(1000):
        text = ""
        while len(text) < 3000:
            text += rng.choice(words) + " "
        g, p = [], []
        for start in range(0, len(text) - 20, 100):  # ~30 gold spans per document
            g.append(Span(start, start + rng.randint(3, 15), rng.choice(types)))
            if rng.random() < 0.8:
                s = start + rng.randint(-2, 2) if start >= 2 else start
                p.append(Span(s, s + rng.randint(3, 15), rng.choice(types)))
            if rng.random() < 0.2:
                p.append(Span(start + 50, start + 58, rng.choice(types)))
        gold.append(GoldDoc(f"n{n}", text, tuple(g)))
        preds[f"n{n}"] = p
    t0 = time.perf_counter()
    report = evaluate(gold, preds)
    elapsed = time.perf_counter() - t0
    assert report.documents == 1000 and report.metric("strict", "ALL").tp > 0
    assert elapsed < 5.0, f"evaluate took {elapsed:.2f}s"
