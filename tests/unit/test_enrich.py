from __future__ import annotations

import datetime as dt

from deid_core.enrich import merge_headers
from schemas import Identifier, PatientHeader, PhiType


def test_merge_keeps_values_from_both_and_prefers_the_message() -> None:
    known = PatientHeader(patient_id="p1", names=["Ann Lee"], birth_date=dt.date(1950, 1, 2), phones=["617-555-0100"],
                          identifiers=[Identifier(value="A1", type=PhiType.ACCOUNT)])
    message = PatientHeader(patient_id="p1", names=["Ann B. Lee"], mrn="123456", birth_date=dt.date(1950, 1, 3))
    merged = merge_headers(message, known)
    assert merged is not None
    assert merged.names == ["Ann B. Lee", "Ann Lee"]
    assert merged.birth_date == dt.date(1950, 1, 3)
    assert merged.phones == ["617-555-0100"] and merged.mrn == "123456"
    assert [i.value for i in merged.identifiers] == ["A1"]


def test_merge_with_one_side_missing() -> None:
    header = PatientHeader(patient_id="p1")
    assert merge_headers(None, header) is header
    assert merge_headers(header, None) is header
    assert merge_headers(None, None) is None
