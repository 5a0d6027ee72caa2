from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemas.envelope import EnvelopeCodec
from schemas.events import EventFormat, EventParseError
from schemas.note import NoteRecord
from schemas.phi import PhiType


def envelope() -> dict[str, Any]:
    return {
        "id": "note-301",
        "kind": "progress",
        "text": "Seen Orla Quennell today; daughter Bridget present.",
        "patient": {
            "patient_id": "pat-4821",
            "names": ["Orla Quennell", "QUENNELL, ORLA"],
            "mrn": "MRN-7730215",
            "identifiers": [{"value": "900-55-1234", "type": "SSN"}, {"value": "HP-44120987", "type": "healthplan", "system": "urn:plan"}],
            "birth_date": "1961-07-14",
            "sex": "F",
            "address": {"street": ["47 Larkspur Way"], "city": "Fennimore", "state": "WI", "zip": "53809", "country": "USA"},
            "phones": ["(555) 301-7788"],
            "emails": ["orla.q@example.org"],
            "next_of_kin": ["Bridget Quennell"],
            "doctors": ["Dr. Tobias Wren"],
        },
    }


def dump(o: object) -> bytes:
    return json.dumps(o).encode()


def identity(codec: EnvelopeCodec, data: bytes) -> dict[tuple[PhiType, str], str]:
    return {k: k[1] for k in codec.header_values(data)}


def test_parse_note_patient_and_default_ref() -> None:
    msg = EnvelopeCodec().parse(dump(envelope()))
    assert msg.format is EventFormat.JSON and msg.message_id == "note-301"
    assert [(n.note_id, n.text) for n in msg.notes] == [("note-301", envelope()["text"])]
    assert msg.patient is not None and msg.patient.birth_date == dt.date(1961, 7, 14)
    assert msg.patient_ref == "pat-4821" and not msg.demographics_only


def test_explicit_patient_ref_and_no_patient() -> None:
    msg = EnvelopeCodec().parse(dump({"id": "n1", "text": "hello", "patient_ref": "pat-9"}))
    assert msg.patient is None and msg.patient_ref == "pat-9"
    msg = EnvelopeCodec().parse(dump({"id": "n1", "text": "hello"}))
    assert msg.patient is None and msg.patient_ref is None


def test_accepts_the_cli_note_record() -> None:
    record = NoteRecord.model_validate({k: v for k, v in envelope().items() if k != "kind"})
    msg = EnvelopeCodec().parse(record.model_dump_json().encode())
    assert msg.patient == record.patient and msg.notes[0].text == record.text


def test_header_values_typed_and_complete() -> None:
    values = EnvelopeCodec().header_values(dump(envelope() | {"patient_ref": "pat-4821"}))
    assert values == [
        (PhiType.IDNUM, "pat-4821"),
        (PhiType.PATIENT, "Orla Quennell"),
        (PhiType.PATIENT, "QUENNELL, ORLA"),
        (PhiType.MEDICALRECORD, "MRN-7730215"),
        (PhiType.SSN, "900-55-1234"),
        (PhiType.HEALTHPLAN, "HP-44120987"),
        (PhiType.DATE, "1961-07-14"),
        (PhiType.STREET, "47 Larkspur Way"),
        (PhiType.CITY, "Fennimore"),
        (PhiType.STATE, "WI"),
        (PhiType.ZIP, "53809"),
        (PhiType.COUNTRY, "USA"),
        (PhiType.PHONE, "(555) 301-7788"),
        (PhiType.EMAIL, "orla.q@example.org"),
        (PhiType.PATIENT, "Bridget Quennell"),
        (PhiType.DOCTOR, "Dr. Tobias Wren"),
    ]


def test_identity_round_trip() -> None:
    codec = EnvelopeCodec()
    data = dump(envelope())
    out = codec.render(data, [envelope()["text"]], identity(codec, data))
    assert json.loads(out) == envelope()
    assert list(json.loads(out)) == list(envelope())


def test_whitespace_values_are_reported_stripped_and_replaced_whole() -> None:
    o = envelope()
    o["patient"]["names"] = ["  Orla Quennell "]
    codec = EnvelopeCodec()
    assert (PhiType.PATIENT, "Orla Quennell") in codec.header_values(dump(o))
    surrogates = identity(codec, dump(o)) | {(PhiType.PATIENT, "Orla Quennell"): "Ann Lee"}
    assert json.loads(codec.render(dump(o), ["x"], surrogates))["patient"]["names"] == ["Ann Lee"]


def test_distinct_surrogates_leave_no_original_value() -> None:
    codec = EnvelopeCodec()
    data = dump(envelope() | {"patient_ref": "pat-4821"})
    values = codec.header_values(data)
    surrogates = {(t, v): "1972-02-29" if t is PhiType.DATE else f"SURR{n}" for n, (t, v) in enumerate(values)}
    out = codec.render(data, ["replacement text"], surrogates)
    for _, value in values:
        assert value not in out.decode()
    msg = codec.parse(out)  # still a valid envelope; the date surrogate is a valid ISO date
    assert msg.patient is not None and msg.patient.birth_date == dt.date(1972, 2, 29)
    assert msg.notes[0].text == "replacement text" and msg.patient_ref == surrogates[(PhiType.IDNUM, "pat-4821")]


def test_render_fails_closed_and_checks_text_count() -> None:
    codec = EnvelopeCodec()
    data = dump(envelope())
    surrogates = identity(codec, data)
    del surrogates[(PhiType.EMAIL, "orla.q@example.org")]
    with pytest.raises(KeyError):
        codec.render(data, ["x"], surrogates)
    with pytest.raises(ValueError, match="expected 1 note text"):
        codec.render(data, ["x", "y"], identity(codec, data))


SECRET = "Zebulon Farquharson"


@pytest.mark.parametrize(
    "data,code",
    [
        (b"\xff{}", "json.decode"),
        (b'{"id": "n1", "text": ', "json.decode"),
        (b'"just a string"', "json.decode"),
        (b"[" * 100_000, "json.decode"),
        (dump({"id": "n1"}), "json.invalid"),
        (dump({"id": "", "text": "x"}), "json.invalid"),
        (dump({"id": "n1", "text": SECRET, SECRET: 1}), "json.invalid"),
        (dump({"id": "n1", "text": "x", "patient": {"patient_id": "p", "birth_date": SECRET}}), "json.invalid"),
        (dump({"id": "n1", "text": "x", "patient": {"patient_id": "p", "identifiers": [{"value": "1", "type": SECRET}]}}), "json.invalid"),
        (dump({"id": "n1", "text": "x", "patient_ref": ""}), "json.invalid"),
    ],
)
def test_error_codes_without_values(data: bytes, code: str) -> None:
    with pytest.raises(EventParseError) as info:
        EnvelopeCodec().parse(data)
    assert info.value.code == code
    assert "Zebulon" not in str(info.value)


def _exercise(data: bytes) -> None:
    codec = EnvelopeCodec()
    try:
        msg = codec.parse(data)
    except EventParseError:
        return
    codec.render(data, [n.text for n in msg.notes], identity(codec, data))


json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=12))
json_value = st.recursive(json_leaf, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=3), max_leaves=8)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200))
def test_random_bytes_raise_only_parse_errors(data: bytes) -> None:
    _exercise(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_envelopes_raise_only_parse_errors(data: st.DataObject) -> None:
    o = envelope()
    section = data.draw(st.sampled_from([o, o["patient"], o["patient"]["address"], o["patient"]["identifiers"][0]]))
    key = data.draw(st.sampled_from(sorted(section)))
    section[key] = data.draw(json_value)
    full = dump(o)
    _exercise(full[: data.draw(st.integers(1, len(full)))])
