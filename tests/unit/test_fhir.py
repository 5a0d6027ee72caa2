from __future__ import annotations

import base64
import copy
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemas.events import EventFormat, EventParseError
from schemas.fhir import FhirCodec
from schemas.phi import PhiType

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "fhir"
NAMES = ["patient", "documentreference", "documentreference_latin1", "diagnosticreport", "bundle"]


def raw(name: str) -> bytes:
    return (FIXTURES / f"{name}.json").read_bytes()


def obj(name: str) -> dict[str, Any]:
    return json.loads(raw(name))


def dump(o: object) -> bytes:
    return json.dumps(o).encode()


def b64(text: str, charset: str = "utf-8") -> str:
    return base64.b64encode(text.encode(charset)).decode()


def identity(codec: FhirCodec, data: bytes) -> dict[tuple[PhiType, str], str]:
    return {k: k[1] for k in codec.header_values(data)}


def _other_date(value: str, n: int) -> str:
    """A different valid FHIR date/dateTime/instant in the same format (only the year changes)."""
    year = 1900 + n % 90
    if int(value[:4]) == year:
        year += 1
    return f"{year:04d}{value[4:]}"


def distinct(codec: FhirCodec, data: bytes) -> dict[tuple[PhiType, str], str]:
    return {
        (t, v): _other_date(v, n) if t is PhiType.DATE else f"SURR{n}"
        for n, (t, v) in enumerate(codec.header_values(data))
    }


def _validate(o: dict[str, Any]) -> None:
    from fhir.resources.R4B import get_fhir_model_class

    get_fhir_model_class(o["resourceType"]).model_validate(o)


def _decoded_view(o: object) -> str:
    """The document as text with every attachment's data decoded, so leaks inside notes show too."""

    def walk(node: object) -> object:
        if isinstance(node, dict):
            out = {k: walk(v) for k, v in node.items()}
            if isinstance(node.get("data"), str) and isinstance(node.get("contentType"), str):
                out["data"] = base64.b64decode(node["data"]).decode("utf-8", errors="replace")
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return json.dumps(walk(o), ensure_ascii=False)


# --- parse ----------------------------------------------------------------------------------------


def test_document_reference_note_patient_ref_and_doctors() -> None:
    msg = FhirCodec().parse(raw("documentreference"))
    assert msg.format is EventFormat.FHIR and msg.message_id == "doc-1001"
    assert [n.note_id for n in msg.notes] == ["doc-1001:0"]  # the PDF attachment is not a note
    assert msg.notes[0].text.startswith("Clinic visit for Orla Quennell (MRN-7730215).\n")
    assert msg.patient_ref == "pat-4821" and not msg.demographics_only
    assert msg.patient is not None
    assert msg.patient.names == ["Orla Quennell"] and msg.patient.doctors == ["Dr. Tobias Wren"]


def test_charset_from_content_type() -> None:
    msg = FhirCodec().parse(raw("documentreference_latin1"))
    assert msg.notes[0].text == "Patientin Orla Quennell, Gr\u00f6\u00dfe 1,62 m. Befund unauff\u00e4llig.\n"


def test_diagnostic_report_presented_form_then_conclusion() -> None:
    msg = FhirCodec().parse(raw("diagnosticreport"))
    assert [n.note_id for n in msg.notes] == ["rep-77:0", "rep-77:1"]
    assert msg.notes[0].text.startswith("CT abdomen for Orla Quennell")
    assert msg.notes[1].text == "No acute abdominal process. Compared with study of 2023-11-02."
    assert msg.patient is not None and msg.patient.doctors == ["Dr. Imke Halvorsen"]


def test_bundle_notes_in_entry_order_and_patient_from_bundle() -> None:
    msg = FhirCodec().parse(raw("bundle"))
    assert msg.message_id == "bundle-5"
    assert [n.note_id for n in msg.notes] == ["doc-1001:0", "rep-77:0", "rep-77:1", "doc-1002:0"]
    assert msg.notes[3].text.startswith("Telephone follow-up")
    assert msg.patient_ref == "pat-4821"
    assert msg.patient is not None and msg.patient.mrn == "MRN-7730215"
    assert msg.patient.doctors == ["Dr. Tobias Wren", "Dr. Imke Halvorsen"]


def test_bare_patient_is_demographics_only_with_full_header() -> None:
    msg = FhirCodec().parse(raw("patient"))
    assert msg.demographics_only and msg.notes == ()
    assert "pat-4821" not in msg.message_id  # the patient key is PHI; message ids reach logs
    assert msg.message_id == FhirCodec().parse(raw("patient")).message_id
    p = msg.patient
    assert p is not None and p.patient_id == "pat-4821" and msg.patient_ref == "pat-4821"
    assert p.names == ["Orla Maeve Quennell", "Orly Quen"]
    assert p.mrn == "MRN-7730215"
    assert [(i.type, i.value) for i in p.identifiers] == [
        (PhiType.SSN, "900-55-1234"),
        (PhiType.ACCOUNT, "ACCT-558812"),
        (PhiType.HEALTHPLAN, "HP-44120987"),
        (PhiType.LICENSE, "D4481207"),
        (PhiType.IDNUM, "LEG-0091"),
    ]
    assert p.identifiers[0].system == "http://hl7.org/fhir/sid/us-ssn"
    assert p.birth_date == dt.date(1961, 7, 14) and p.sex == "female"
    assert p.address is not None and p.address.street == ["47 Larkspur Way", "Unit 9"]
    assert (p.address.city, p.address.state, p.address.zip, p.address.country) == ("Fennimore", "WI", "53809", "USA")
    assert p.phones == ["(555) 301-7788", "555-301-7799"] and p.emails == ["orla.q@example.org"]
    assert p.next_of_kin == ["Bridget Quennell"] and p.doctors == ["Dr. Tobias Wren"]


def test_partial_birth_date_is_reported_but_not_a_date() -> None:
    o = obj("patient")
    o["birthDate"] = "1961-07"
    codec = FhirCodec()
    assert codec.parse(dump(o)).patient.birth_date is None  # type: ignore[union-attr]
    assert (PhiType.DATE, "1961-07") in codec.header_values(dump(o))


def test_entry_without_id_uses_full_url() -> None:
    o = obj("bundle")
    del o["entry"][3]["resource"]["id"]
    msg = FhirCodec().parse(dump(o))
    assert msg.notes[3].note_id == "http://example.org/fhir/DocumentReference/doc-1002:0"


# --- header values ----------------------------------------------------------------------------------


def test_header_values_cover_structured_phi() -> None:
    values = FhirCodec().header_values(raw("bundle"))
    assert len(values) == len(set(values))
    expected = {
        (PhiType.IDNUM, "pat-4821"),
        (PhiType.MEDICALRECORD, "MRN-7730215"),
        (PhiType.SSN, "900-55-1234"),
        (PhiType.PATIENT, "Quennell"),
        (PhiType.PATIENT, "Orla"),
        (PhiType.PATIENT, "Maeve"),
        (PhiType.PATIENT, "Orly Quen"),
        (PhiType.PATIENT, "Orla Quennell"),  # subject.display
        (PhiType.PATIENT, "Bridget"),
        (PhiType.DATE, "1961-07-14"),
        (PhiType.STREET, "47 Larkspur Way"),
        (PhiType.CITY, "Fennimore"),
        (PhiType.STATE, "WI"),
        (PhiType.ZIP, "53809"),
        (PhiType.COUNTRY, "USA"),
        (PhiType.PHONE, "(555) 301-7788"),
        (PhiType.FAX, "555-301-7799"),
        (PhiType.EMAIL, "orla.q@example.org"),
        (PhiType.PHONE, "555-301-4422"),
        (PhiType.DOCTOR, "Dr. Tobias Wren"),
        (PhiType.DOCTOR, "Dr. Imke Halvorsen"),
        (PhiType.DATE, "2024-01-30T15:20:00Z"),
        (PhiType.DATE, "2024-01-29T11:00:00-06:00"),
        (PhiType.DATE, "2024-01-29T13:45:00-06:00"),
        (PhiType.DATE, "2024-02-02T09:00:00Z"),
    }
    assert expected <= set(values)
    assert values[0] == (PhiType.IDNUM, "pat-4821")
    assert values == FhirCodec().header_values(raw("bundle"))  # stable order


# --- render -----------------------------------------------------------------------------------------


def _expected_identity_render(o: dict[str, Any]) -> dict[str, Any]:
    """What an identity render must equal: documented drops (narrative, hash, non-text attachments)."""
    o = copy.deepcopy(o)
    resources = [e["resource"] for e in o["entry"]] if o["resourceType"] == "Bundle" else [o]
    for r in resources:
        r.pop("text", None)
        if r["resourceType"] == "DocumentReference":
            r["content"] = [c for c in r["content"] if c["attachment"]["contentType"].startswith("text/plain")]
            atts = [c["attachment"] for c in r["content"]]
        elif r["resourceType"] == "DiagnosticReport":
            atts = r.get("presentedForm", [])
        else:
            atts = []
        for a in atts:
            a.pop("hash", None)
            a["size"] = len(base64.b64decode(a["data"]))
    return o


@pytest.mark.parametrize("name", NAMES)
def test_identity_round_trip(name: str) -> None:
    codec = FhirCodec()
    data = raw(name)
    msg = codec.parse(data)
    out = codec.render(data, [n.text for n in msg.notes], identity(codec, data))
    assert json.loads(out) == _expected_identity_render(obj(name))
    assert list(json.loads(out)) == list(_expected_identity_render(obj(name)))  # key order kept
    again = codec.parse(out)
    assert again.notes == msg.notes and again.patient == msg.patient and again.patient_ref == msg.patient_ref


@pytest.mark.parametrize("name", NAMES)
def test_distinct_surrogates_leave_no_original_value(name: str) -> None:
    codec = FhirCodec()
    data = raw(name)
    msg = codec.parse(data)
    surrogates = distinct(codec, data)
    texts = [f"replacement note {i}" for i in range(len(msg.notes))]
    out = codec.render(data, texts, surrogates)
    rendered = json.loads(out)
    view = _decoded_view(rendered)
    for _, value in surrogates:
        assert value not in view
    _validate(rendered)
    assert rendered["resourceType"] == obj(name)["resourceType"]
    again = codec.parse(out)
    assert [n.text for n in again.notes] == texts
    assert [n.note_id for n in again.notes] == [n.note_id for n in msg.notes]
    if msg.patient_ref is not None:
        assert again.patient_ref == surrogates[(PhiType.IDNUM, msg.patient_ref)]


def test_references_rewritten_with_patient_id_surrogate() -> None:
    codec = FhirCodec()
    data = raw("bundle")
    surrogates = identity(codec, data) | {(PhiType.IDNUM, "pat-4821"): "p-9000"}
    msg = codec.parse(data)
    out = json.loads(codec.render(data, [n.text for n in msg.notes], surrogates))
    assert out["entry"][0]["fullUrl"] == "http://example.org/fhir/Patient/p-9000"
    assert out["entry"][0]["resource"]["id"] == "p-9000"
    assert [e["resource"]["subject"]["reference"] for e in out["entry"][1:]] == ["Patient/p-9000"] * 3
    assert "pat-4821" not in json.dumps(out)


def test_versioned_and_transaction_references() -> None:
    o = obj("bundle")
    o["type"] = "transaction"
    o["entry"][0]["request"] = {"method": "PUT", "url": "Patient/pat-4821"}
    o["entry"][1]["resource"]["subject"]["reference"] = "http://example.org/fhir/Patient/pat-4821/_history/3"
    codec = FhirCodec()
    data = dump(o)
    surrogates = identity(codec, data) | {(PhiType.IDNUM, "pat-4821"): "p-9000"}
    out = json.loads(codec.render(data, [n.text for n in codec.parse(data).notes], surrogates))
    assert out["entry"][0]["request"]["url"] == "Patient/p-9000"
    assert out["entry"][1]["resource"]["subject"]["reference"] == "http://example.org/fhir/Patient/p-9000/_history/3"


def test_render_reencodes_in_attachment_charset_and_updates_size() -> None:
    codec = FhirCodec()
    data = raw("documentreference_latin1")
    text = "Patientin ANON, Gr\u00f6\u00dfe normal.\n"
    att = json.loads(codec.render(data, [text], identity(codec, data)))["content"][0]["attachment"]
    assert att["contentType"] == "text/plain; charset=ISO-8859-1"
    assert base64.b64decode(att["data"]) == text.encode("latin-1") and att["size"] == len(text.encode("latin-1"))


def test_render_falls_back_to_utf8_when_charset_cannot_hold_text() -> None:
    codec = FhirCodec()
    data = raw("documentreference_latin1")
    text = "Surrogate \u015awi\u0119ty \u2014 ok"
    att = json.loads(codec.render(data, [text], identity(codec, data)))["content"][0]["attachment"]
    assert att["contentType"] == "text/plain; charset=utf-8"
    assert base64.b64decode(att["data"]).decode("utf-8") == text


def test_render_drops_hash_and_narrative() -> None:
    codec = FhirCodec()
    data = raw("bundle")
    out = json.loads(codec.render(data, [n.text for n in codec.parse(data).notes], identity(codec, data)))
    assert "text" not in out["entry"][0]["resource"]
    assert "hash" not in out["entry"][1]["resource"]["content"][0]["attachment"]
    assert len(out["entry"][1]["resource"]["content"]) == 1  # the PDF is gone


def test_render_fails_closed_on_missing_surrogate() -> None:
    codec = FhirCodec()
    data = raw("bundle")
    surrogates = identity(codec, data)
    del surrogates[(PhiType.ZIP, "53809")]
    with pytest.raises(KeyError):
        codec.render(data, [n.text for n in codec.parse(data).notes], surrogates)


def test_render_rejects_wrong_number_of_texts() -> None:
    codec = FhirCodec()
    data = raw("diagnosticreport")
    with pytest.raises(ValueError, match="expected 2 note texts"):
        codec.render(data, ["only one"], identity(codec, data))


# --- errors -----------------------------------------------------------------------------------------


def _docref(**attachment: Any) -> dict[str, Any]:
    return {"resourceType": "DocumentReference", "id": "d1", "status": "current", "content": [{"attachment": attachment}]}


def _error_code(data: bytes) -> EventParseError:
    with pytest.raises(EventParseError) as info:
        FhirCodec().parse(data)
    return info.value


SECRET = "Zebulon Farquharson"


@pytest.mark.parametrize(
    "data,code",
    [
        (b"\xff\xfe{}", "fhir.json"),
        (b'{"resourceType": "Patient",', "fhir.json"),
        (b"[1, 2]", "fhir.json"),
        (b'{"resourceType": "Patient", "id": "p1", "multipleBirthDecimal": NaN}', "fhir.json"),
        (b"[" * 100_000 + b"]" * 100_000, "fhir.json"),
        (dump({"resourceType": "Observation", "id": "o1"}), "fhir.unsupported_resource"),
        (dump({"resourceType": "Bundle", "id": "b", "type": "searchset", "entry": []}), "fhir.unsupported_resource"),
        (dump({"resourceType": "Bundle", "id": "b", "type": "collection", "entry": [{"resource": {"resourceType": "Foo"}}]}), "fhir.unsupported_resource"),
        (dump(_docref(contentType="text/plain", data=b64("x")) | {"contained": [{"resourceType": "Patient", "id": "c"}]}), "fhir.unsupported_resource"),
        (dump({"id": "p1"}), "fhir.invalid"),
        (dump({"resourceType": "Patient", "id": "p1", "name": [{"given": [SECRET]}], "gender": 7}), "fhir.invalid"),
        (dump({"resourceType": "Patient", "id": "p1", "birthDate": SECRET}), "fhir.invalid"),
        (dump({"resourceType": "Patient", "id": "p1", SECRET: 1}), "fhir.invalid"),
        (dump({"resourceType": "Bundle", "id": "b", "type": "collection", "entry": [{"resource": {"resourceType": "Patient", "id": "a"}}, {"resource": {"resourceType": "Patient", "id": "b"}}]}), "fhir.invalid"),
        (dump(_docref(contentType="text/plain", data="aGVsbG8")), "fhir.base64"),
        (dump(_docref(contentType="text/plain", data="aGVs!!bG8=")), "fhir.base64"),
        (dump(_docref(contentType="application/pdf", data=b64("x"))), "fhir.no_text"),
        (dump({"resourceType": "DiagnosticReport", "id": "r1", "status": "final", "code": {"text": "CBC"}}), "fhir.no_text"),
        (dump({"resourceType": "Bundle", "id": "b", "type": "collection", "entry": []}), "fhir.no_text"),
        (dump({k: v for k, v in _docref(contentType="text/plain", data=b64("x")).items() if k != "id"}), "fhir.missing_id"),
        (dump({"resourceType": "Bundle", "type": "collection", "entry": [{"resource": _docref(contentType="text/plain", data=b64("x"))}]}), "fhir.missing_id"),
        (dump({"resourceType": "Bundle", "id": "b", "type": "collection", "entry": [{"resource": {k: v for k, v in _docref(contentType="text/plain", data=b64("x")).items() if k != "id"}}]}), "fhir.missing_id"),
        (dump(_docref(contentType="text/plain; charset=x-no-such-charset", data=b64("x"))), "fhir.charset"),
        (dump(_docref(contentType="text/plain", data=b64("Gr\u00f6\u00dfe", "latin-1"))), "fhir.charset"),
    ],
)
def test_error_codes(data: bytes, code: str) -> None:
    err = _error_code(data)
    assert err.code == code
    assert SECRET not in str(err) and "Zebulon" not in str(err)


def test_invalid_message_names_the_field_without_the_value() -> None:
    err = _error_code(dump({"resourceType": "Patient", "id": "p1", "name": [{"given": [1234567]}]}))
    assert "name.0.given.0" in err.message and "1234567" not in err.message


def test_header_values_and_render_reject_what_parse_rejects() -> None:
    bad = dump({"resourceType": "Observation", "id": "o1"})
    with pytest.raises(EventParseError):
        FhirCodec().header_values(bad)
    with pytest.raises(EventParseError):
        FhirCodec().render(bad, [], {})


# --- robustness -------------------------------------------------------------------------------------

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20))
json_value = st.recursive(json_leaf, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3), max_leaves=8)


def _paths(node: object, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


def _set(node: Any, path: tuple[Any, ...], value: object) -> Any:
    if not path:
        return value
    parent = node
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = value
    return node


def _exercise(data: bytes) -> None:
    """Either EventParseError, or all three operations work on the input."""
    codec = FhirCodec()
    try:
        msg = codec.parse(data)
    except EventParseError:
        return
    surrogates = identity(codec, data)
    codec.render(data, [n.text for n in msg.notes], surrogates)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200))
def test_random_bytes_raise_only_parse_errors(data: bytes) -> None:
    _exercise(data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES), st.data())
def test_truncated_fixtures_raise_only_parse_errors(name: str, data: st.DataObject) -> None:
    full = raw(name)
    _exercise(full[: data.draw(st.integers(0, len(full) - 1))])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES), st.data())
def test_mutated_fixtures_raise_only_parse_errors(name: str, data: st.DataObject) -> None:
    o = obj(name)
    path = data.draw(st.sampled_from(_paths(o)))
    depth = data.draw(st.sampled_from([0, 0, 0, 50, 5000]))
    value = json.dumps(data.draw(json_value))
    # Built as text: json.dumps itself cannot encode thousands of levels.
    opener, closer = data.draw(st.sampled_from([("[", "]"), ('{"a":', "}")]))
    nested = opener * depth + value + closer * depth
    _exercise(json.dumps(_set(o, path, "__DEEP__")).replace('"__DEEP__"', nested).encode())
