from __future__ import annotations

import pytest

from schemas import TAXONOMY, PatientHeader, PhiCategory, PhiType, Span, types_in
from schemas.jsonl import InputError, read_note_records


def test_taxonomy_covers_i2b2_categories_and_flags_hipaa() -> None:
    assert {info.category for info in TAXONOMY.values()} == set(PhiCategory)
    assert types_in(PhiCategory.NAME) == [PhiType.PATIENT, PhiType.DOCTOR, PhiType.USERNAME]
    assert PhiType.PATIENT.hipaa and PhiType.MEDICALRECORD.hipaa and PhiType.DATE.hipaa
    assert not PhiType.DOCTOR.hipaa and not PhiType.HOSPITAL.hipaa and not PhiType.PROFESSION.hipaa


@pytest.mark.parametrize("raw,expected", [("OTHER", PhiType.LOCATION_OTHER), ("location_other", PhiType.LOCATION_OTHER), ("mEdicalRecord", PhiType.MEDICALRECORD)])
def test_phi_type_parse_accepts_i2b2_spellings(raw: str, expected: PhiType) -> None:
    assert PhiType.parse(raw) is expected


def test_phi_type_parse_rejects_unknown() -> None:
    with pytest.raises(ValueError, match="unknown PHI type"):
        PhiType.parse("SHOESIZE")


def test_span_validates_offsets_and_is_immutable() -> None:
    with pytest.raises(ValueError):
        Span(5, 5, PhiType.DATE)
    span = Span(1, 4, PhiType.DATE, 0.9, frozenset({"rules"}))
    with pytest.raises(AttributeError):
        span.start = 2  # type: ignore[misc]
    assert span.to_json() == {"start": 1, "end": 4, "type": "DATE"}


def test_patient_header_minimal_and_full() -> None:
    minimal = PatientHeader.model_validate({"patient_id": "p1", "names": ["Ann Lee"]})
    assert minimal.names == ["Ann Lee"] and minimal.birth_date is None
    full = PatientHeader.model_validate(
        {
            "patient_id": "p2", "names": ["LEE, ANN"], "mrn": "MC-0937884", "birth_date": "1950-03-05",
            "identifiers": [{"value": "A123", "type": "healthplan"}],
            "address": {"street": ["12 Oak St"], "city": "Boston", "state": "MA", "zip": "02114"},
            "phones": ["617-555-0101"], "next_of_kin": ["Bo Lee"], "doctors": ["Dr. Kim"],
        }
    )
    ids = full.all_identifiers()
    assert [(i.type, i.value) for i in ids] == [(PhiType.MEDICALRECORD, "MC-0937884"), (PhiType.HEALTHPLAN, "A123")]


def test_jsonl_errors_name_the_line_and_never_echo_content() -> None:
    secret = "Zebulon Quackenbush"
    lines = [b'{"id": "a", "text": "ok"}\n', b"\n", ('{"id": "b", "text": 5, "x": "' + secret + '"}\n').encode()]
    with pytest.raises(InputError) as err:
        read_note_records(lines)
    assert err.value.line == 3
    assert "line 3" in str(err.value) and secret not in str(err.value)


@pytest.mark.parametrize(
    "raw,problem",
    [
        (b'{"id": "a", "text": "caf\xff"}', "not valid UTF-8"),
        (b'{"id": "a", "text": ', "invalid JSON"),
        (b'["a"]', "expected a JSON object"),
        (b'{"text": "x"}', "field 'id'"),
        (b'{"id": "a"}', "field 'text'"),
        (b'{"id": "a", "text": "t", "patient": {"names": ["Ann"]}}', "patient.patient_id"),
    ],
)
def test_jsonl_bad_lines(raw: bytes, problem: str) -> None:
    with pytest.raises(InputError, match="line 1") as err:
        read_note_records([raw])
    assert problem in str(err.value)
