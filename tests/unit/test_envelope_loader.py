"""The JSON envelope loader: every header value a typed leaf, removal and rendering, safe errors."""

from __future__ import annotations

import json

import pytest

from deid_core.message.envelope import EnvelopeLoader
from schemas.events import EventParseError
from schemas.message import Kind, Role
from schemas.phi import PhiType

ENVELOPE = {
    "id": "note-77",
    "text": "Ann Lee seen today.",
    "kind": "progress",
    "patient": {
        "patient_id": "p-77",
        "names": ["Ann Lee"],
        "mrn": "12345678",
        "identifiers": [{"value": "123-45-6789", "type": "SSN", "system": "ssa"}],
        "birth_date": "1980-02-01",
        "sex": "F",
        "address": {"street": ["1 Main St"], "city": "Boston", "state": "MA", "zip": "02139"},
        "phones": ["617-555-0100"],
        "next_of_kin": ["Bo Lee"],
        "doctors": ["Dr. Cy Ray"],
    },
}


def _load(doc: dict[str, object] | None = None) -> object:
    return EnvelopeLoader().load(json.dumps(doc or ENVELOPE).encode())


def test_every_value_is_a_typed_leaf() -> None:
    msg = _load()
    kinds = {leaf.path: (leaf.kind, leaf.phi_type, leaf.role) for leaf in msg.leaves()}  # type: ignore[attr-defined]
    assert kinds["$.id"][0] is Kind.IDENTIFIER
    assert kinds["$.kind"][0] is Kind.CODE
    assert kinds["$.patient.names"] == (Kind.NAME, PhiType.PATIENT, Role.NONE)
    assert kinds["$.patient.doctors"][1] is PhiType.DOCTOR
    assert kinds["$.patient.birth_date"] == (Kind.DATE, None, Role.BIRTH_DATE)
    assert kinds["$.patient.identifiers.value"][1] is PhiType.SSN
    assert kinds["$.patient.address.zip"] == (Kind.ADDRESS, PhiType.ZIP, Role.NONE)
    assert msg.notes[0].text == "Ann Lee seen today."  # type: ignore[attr-defined]
    assert msg.patient_ref == "p-77"  # type: ignore[attr-defined]


def test_render_applies_decisions_and_removes() -> None:
    msg = _load()
    for leaf in msg.leaves():  # type: ignore[attr-defined]
        if leaf.kind is Kind.NAME:
            leaf.decide("[NAME]")
        elif leaf.kind is Kind.ADDRESS:
            leaf.decide(None)
        else:
            leaf.decide(leaf.value)
    out = json.loads(msg.render(["[NAME] seen today."]))  # type: ignore[attr-defined]
    assert out["text"] == "[NAME] seen today."
    assert out["patient"]["names"] == ["[NAME]"] and out["patient"]["doctors"] == ["[NAME]"]
    assert out["patient"]["address"] == {"street": []}
    assert out["patient"]["mrn"] == "12345678"


def test_undecided_leaves_refuse_to_render() -> None:
    msg = _load()
    with pytest.raises(RuntimeError, match="not decided"):
        msg.render(["x"])  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "doc",
    [
        {"id": "n1", "text": "x", "SECRETKEY-Zyx": "v"},
        {"id": "n1", "text": "x", "patient": {"patient_id": "p", "Qorvex-secret": "v"}},
        {"id": "n1", "text": 5, "patient": {"patient_id": "Qorvex-value"}},
    ],
)
def test_errors_never_echo_keys_or_values(doc: dict[str, object]) -> None:
    with pytest.raises(EventParseError) as err:
        EnvelopeLoader().load(json.dumps(doc).encode())
    assert err.value.code == "json.invalid"
    assert "SECRET" not in str(err.value) and "Qorvex" not in str(err.value)
