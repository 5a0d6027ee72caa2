"""Gold and prediction loaders: JSONL, i2b2 2014 and 2006 XML, and their error messages."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from deid_tools.eval import EvalInputError, GoldDoc, evaluate, load_gold, load_predictions, read_gold
from schemas import PhiType, Span

T = PhiType
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "eval"


def spans_of(doc: GoldDoc) -> list[tuple[str, PhiType]]:
    return [(doc.text[s.start : s.end], s.type) for s in doc.spans]


def write_lines(path: Path, *lines: object) -> Path:
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n")
    return path


# --- JSONL gold ---------------------------------------------------------------------------------------


def test_jsonl_gold_ignores_extra_keys_and_sorts_spans():
    docs = load_gold(FIXTURES / "gold.jsonl")
    assert [d.id for d in docs] == ["g1", "g2"]
    assert spans_of(docs[0]) == [("Amos Quill", T.DOCTOR), ("2088-04-09", T.DATE)]
    assert [(s.start, s.end) for s in docs[0].spans] == [(11, 21), (25, 35)]
    assert docs[1] == GoldDoc("g2", "Nothing to see.", ())


def test_jsonl_gold_accepts_i2b2_type_spellings(tmp_path):
    path = write_lines(
        tmp_path / "g.jsonl",
        {
            "id": "a",
            "text": "at Elm Park",
            "spans": [
                {"start": 3, "end": 11, "type": "OTHER"},
                {"start": 0, "end": 2, "type": "location_other"},
            ],
        },
    )
    assert [s.type for s in load_gold(path)[0].spans] == [T.LOCATION_OTHER, T.LOCATION_OTHER]


def test_invalid_json_names_file_and_line(tmp_path):
    ok = {"id": "a", "text": "x", "spans": []}
    path = write_lines(tmp_path / "gold.jsonl", ok, {**ok, "id": "b"}, '{"id": "c", "text": ')
    with pytest.raises(EvalInputError) as err:
        load_gold(path)
    assert "gold.jsonl" in str(err.value) and "line 3" in str(err.value) and "invalid JSON" in str(err.value)


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        ({"id": "a", "spans": []}, "missing 'text'"),
        ({"id": "a", "text": 5, "spans": []}, "'text' is not a string"),
        ({"text": "abc", "spans": []}, "missing 'id'"),
        ({"id": "", "text": "abc", "spans": []}, "'id' must be a non-empty string"),
        ({"id": "a", "text": "abc"}, "missing 'spans'"),
        ({"id": "a", "text": "abc", "spans": {}}, "'spans' must be a list"),
        (
            {"id": "a", "text": "abc", "spans": [{"start": 1, "end": 9, "type": "DATE"}]},
            "line 2, span #1: offsets 1:9 outside the text (length 3)",
        ),
        (
            {"id": "a", "text": "abc", "spans": [{"start": 2, "end": 2, "type": "DATE"}]},
            "invalid offsets 2:2",
        ),
        (
            {"id": "a", "text": "abc", "spans": [{"start": -1, "end": 2, "type": "DATE"}]},
            "invalid offsets -1:2",
        ),
        (
            {"id": "a", "text": "abc", "spans": [{"start": "0", "end": 2, "type": "DATE"}]},
            "'start' must be an integer",
        ),
        (
            {"id": "a", "text": "abc", "spans": [{"start": False, "end": 2, "type": "DATE"}]},
            "'start' must be an integer",
        ),
        (
            {"id": "a", "text": "abc", "spans": [{"start": 0, "end": 2, "type": "NICKNAME"}]},
            "unknown PHI type 'NICKNAME'",
        ),
        ({"id": "a", "text": "abc", "spans": [{"start": 0, "end": 2}]}, "'type' must be a string"),
        ({"id": "a", "text": "abc", "spans": [[0, 2, "DATE"]]}, "span #1: expected an object"),
        ([1, 2], "expected a JSON object, got list"),
    ],
)
def test_bad_gold_records(tmp_path, record, problem):
    path = write_lines(tmp_path / "gold.jsonl", {"id": "first", "text": "ok", "spans": []}, record)
    with pytest.raises(EvalInputError) as err:
        load_gold(path)
    message = str(err.value)
    assert "gold.jsonl, line 2" in message and problem in message


def test_duplicate_gold_ids(tmp_path):
    rec = {"id": "a", "text": "abc", "spans": []}
    with pytest.raises(EvalInputError, match="duplicate document id 'a'"):
        load_gold(write_lines(tmp_path / "g.jsonl", rec, rec))


def test_error_messages_do_not_quote_note_text(tmp_path):
    secret = "Zebulon Quartermaine"
    path = write_lines(
        tmp_path / "g.jsonl",
        {"id": "a", "text": secret, "spans": [{"start": 0, "end": 99, "type": "PATIENT"}]},
    )
    with pytest.raises(EvalInputError) as err:
        load_gold(path)
    assert "Zebulon" not in str(err.value)


def test_missing_file(tmp_path):
    with pytest.raises(EvalInputError, match="cannot read"):
        load_gold(tmp_path / "nope.jsonl")


# --- predictions -------------------------------------------------------------------------------------


def test_predictions_from_detect_and_deidentify_output(tmp_path):
    path = write_lines(
        tmp_path / "pred.jsonl",
        {
            "id": "g1",
            "spans": [{"start": 11, "end": 21, "type": "DOCTOR", "score": 0.9, "sources": ["rules"]}],
        },
        "",
        # deidentify output: surrogate text of another length; spans are over the original text.
        {
            "id": "g2",
            "text": "Surrogate text that is longer than the original.",
            "spans": [{"start": 0, "end": 7, "type": "PATIENT"}],
            "patient_pseudonym": "x1",
        },
        {"note_id": "g3", "spans": []},
    )
    preds = load_predictions(path)
    assert preds == {"g1": [Span(11, 21, T.DOCTOR)], "g2": [Span(0, 7, T.PATIENT)], "g3": []}
    assert preds["g1"][0].type is T.DOCTOR and preds["g2"][0].type is T.PATIENT


def test_prediction_errors(tmp_path):
    path = write_lines(tmp_path / "pred.jsonl", {"id": "a", "spans": []}, "", "not json")
    with pytest.raises(EvalInputError, match=r"pred\.jsonl, line 3: invalid JSON"):
        load_predictions(path)
    path = write_lines(tmp_path / "pred.jsonl", {"id": "a", "spans": []}, {"id": "a", "spans": []})
    with pytest.raises(EvalInputError, match="line 2: duplicate document id 'a'"):
        load_predictions(path)
    path = write_lines(tmp_path / "pred.jsonl", {"id": "a", "spans": [{"start": 3, "end": 1, "type": "AGE"}]})
    with pytest.raises(EvalInputError, match="line 1, span #1: invalid offsets 3:1"):
        load_predictions(path)


def test_jsonl_round_trip_scores_perfectly():
    gold = load_gold(FIXTURES / "gold.jsonl")
    report = evaluate(gold, {d.id: list(d.spans) for d in gold})
    assert report.metric("strict", "ALL").f1 == 1.0 and report.metric("token", "DOCTOR").f1 == 1.0


# --- i2b2 2014 ---------------------------------------------------------------------------------------

NOTE_101 = [
    ("2091-02-14", T.DATE),
    ("Zelda Quimby", T.PATIENT),
    ("67", T.AGE),
    ("welder", T.PROFESSION),
    ("Fairview Clinic", T.HOSPITAL),
    ("41 Larkspur Lane", T.STREET),
    ("Dunmore", T.CITY),
    ("OH", T.STATE),
    ("45999", T.ZIP),
    ("(555) 010-4477", T.PHONE),
    ("8812-33", T.MEDICALRECORD),
    ("Harlan Pike", T.DOCTOR),
    ("3/2/91", T.DATE),
]


def test_i2b2_2014_directory():
    gold = read_gold(FIXTURES / "i2b2_2014")
    assert [d.id for d in gold.docs] == ["note-101", "note-102"]
    note, other = gold.docs
    assert note.text.startswith("\nRecord date: 2091-02-14\n")
    assert spans_of(note) == NOTE_101
    assert (note.spans[0].start, note.spans[0].end) == (14, 24)
    # "<camp>" is CDATA text, not markup; TYPE="OTHER" is the 2014 spelling of LOCATION-OTHER.
    assert "<camp>" in other.text
    assert spans_of(other) == [("Lake Orrin", T.LOCATION_OTHER), ("QZ", T.USERNAME)]
    # note-102's P1 has a text attribute that does not match its offsets: warned, offsets kept.
    assert len(gold.warnings) == 1
    assert (
        "note-102.xml, element <NAME id='P1'>: text attribute does not match TEXT[51:53]" in gold.warnings[0]
    )
    assert "QZ" not in gold.warnings[0]


def test_i2b2_2014_single_file_and_load_gold_logs_warning_count(caplog):
    assert spans_of(load_gold(FIXTURES / "i2b2_2014" / "note-101.xml")[0]) == NOTE_101
    with caplog.at_level(logging.WARNING, logger="deid_tools.eval.gold"):
        docs = load_gold(FIXTURES / "i2b2_2014")
    assert len(docs) == 2
    assert "1 annotation warnings" in caplog.text and "QZ" not in caplog.text


def test_i2b2_2014_text_attribute_newlines_are_not_mismatches(tmp_path):
    xml = (
        "<deIdi2b2><TEXT><![CDATA[Seen at Oak\nHill today]]></TEXT><TAGS>"
        '<LOCATION id="P0" start="8" end="16" text="Oak\nHill" TYPE="HOSPITAL" /></TAGS></deIdi2b2>'
    )
    (tmp_path / "n.xml").write_text(xml)
    gold = read_gold(tmp_path / "n.xml")
    assert gold.warnings == () and spans_of(gold.docs[0]) == [("Oak\nHill", T.HOSPITAL)]


@pytest.mark.parametrize(
    ("tag", "problem"),
    [
        (
            '<DATE id="P4" start="8" end="99" TYPE="DATE" />',
            "element <DATE id='P4'>: offsets 8:99 outside the text",
        ),
        (
            '<DATE id="P4" start="x" end="9" TYPE="DATE" />',
            "element <DATE id='P4'>: attribute 'start' is not an integer",
        ),
        ('<DATE id="P4" end="9" TYPE="DATE" />', "element <DATE id='P4'>: missing attribute 'start'"),
        ('<NAME id="P4" start="0" end="4" TYPE="NICK" />', "element <NAME id='P4'>: unknown PHI type 'NICK'"),
    ],
)
def test_i2b2_2014_bad_tags(tmp_path, tag, problem):
    (tmp_path / "n.xml").write_text(
        f"<deIdi2b2><TEXT><![CDATA[Seen on 3/4/91]]></TEXT><TAGS>{tag}</TAGS></deIdi2b2>"
    )
    with pytest.raises(EvalInputError) as err:
        read_gold(tmp_path / "n.xml")
    assert "n.xml" in str(err.value) and problem in str(err.value)


def test_i2b2_tag_without_type_uses_element_name(tmp_path):
    (tmp_path / "n.xml").write_text(
        '<deIdi2b2><TEXT><![CDATA[on 3/4]]></TEXT><TAGS><DATE start="3" end="6"/></TAGS></deIdi2b2>'
    )
    assert spans_of(load_gold(tmp_path / "n.xml")[0]) == [("3/4", T.DATE)]


def test_malformed_and_unknown_xml(tmp_path):
    (tmp_path / "bad.xml").write_text("<deIdi2b2>\n<TEXT>oops</TEXT>\n<TAGS>\n</deIdi2b2>")
    with pytest.raises(EvalInputError, match=r"bad\.xml, line 4, column \d+: malformed XML"):
        load_gold(tmp_path / "bad.xml")
    (tmp_path / "other.xml").write_text("<html><body/></html>")
    with pytest.raises(EvalInputError, match="neither i2b2 2014"):
        load_gold(tmp_path / "other.xml")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(EvalInputError, match="no \\*.xml files"):
        load_gold(empty)


def test_xml_content_detected_without_xml_suffix(tmp_path):
    path = tmp_path / "gold.txt"
    path.write_text((FIXTURES / "i2b2_2014" / "note-101.xml").read_text())
    assert spans_of(load_gold(path)[0]) == NOTE_101


# --- i2b2 2006 ---------------------------------------------------------------------------------------


def test_i2b2_2006_inline_tags_become_offsets():
    docs = load_gold(FIXTURES / "i2b2_2006.xml")
    assert [d.id for d in docs] == ["501", "502"]
    rec, empty = docs
    assert "<PHI" not in rec.text and "BRINDLE VALLEY MEDICAL\nAdmission Date : 11/05/2093\n" in rec.text
    assert " from Cedar Bend & back." in rec.text
    assert spans_of(rec) == [
        ("447120913", T.IDNUM),
        ("BRINDLE VALLEY MEDICAL", T.HOSPITAL),
        ("11/05/2093", T.DATE),
        ("Olwen Tarrant", T.PATIENT),
        ("58", T.AGE),
        ("Cedar Bend", T.LOCATION_OTHER),
        ("555-0142", T.PHONE),
        ("Rhys Vantongeren", T.DOCTOR),
    ]
    assert rec.spans[0].start == 1  # after the newline that opens TEXT
    assert empty == GoldDoc("502", "No PHI in this synthetic record.", ())


def test_i2b2_2006_errors_and_warnings(tmp_path):
    (tmp_path / "a.xml").write_text(
        '<ROOT><RECORD ID="7"><TEXT>x <PHI TYPE="NICK">y</PHI></TEXT></RECORD></ROOT>'
    )
    with pytest.raises(EvalInputError, match="<RECORD ID='7'>: PHI #1 has unknown TYPE 'NICK'"):
        load_gold(tmp_path / "a.xml")
    (tmp_path / "b.xml").write_text('<ROOT><RECORD ID="7"><TEXT>x <B>y</B></TEXT></RECORD></ROOT>')
    with pytest.raises(EvalInputError, match="unexpected element <B> inside TEXT"):
        load_gold(tmp_path / "b.xml")
    (tmp_path / "c.xml").write_text("<ROOT><RECORD><TEXT>x</TEXT></RECORD></ROOT>")
    with pytest.raises(EvalInputError, match="RECORD #1: missing ID"):
        load_gold(tmp_path / "c.xml")
    (tmp_path / "d.xml").write_text(
        '<ROOT><RECORD ID="8"><TEXT>x <PHI TYPE="DATE"></PHI> y</TEXT></RECORD></ROOT>'
    )
    gold = read_gold(tmp_path / "d.xml")
    assert gold.docs[0] == GoldDoc("8", "x  y", ()) and "PHI #1 is empty" in gold.warnings[0]
