"""Context-driven identifiers: only the value is tagged, checksummed families are validated."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from deid_core.detect.rules.ids import dea_valid, npi_valid, vin_valid
from schemas import EnrichedNote, PhiType


def found(text: str) -> set[tuple[str, PhiType]]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {(text[s.start : s.end], s.type) for s in spans}


T = PhiType


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("MRN: 1234567", ("1234567", T.MEDICALRECORD)),
        ("MR# 7654321", ("7654321", T.MEDICALRECORD)),
        ("medical record number MC-0937884", ("MC-0937884", T.MEDICALRECORD)),
        ("Unit No: 123-45-67", ("123-45-67", T.MEDICALRECORD)),
        ("MC# 0937884", ("0937884", T.MEDICALRECORD)),
        ("Acct #: 99012345    Unit No: 556-21-90", ("99012345", T.ACCOUNT)),
        ("account number A12-3456", ("A12-3456", T.ACCOUNT)),
        ("member id XYZ123456", ("XYZ123456", T.HEALTHPLAN)),
        ("policy 98765432", ("98765432", T.HEALTHPLAN)),
        ("insurance id 55-3321-9", ("55-3321-9", T.HEALTHPLAN)),
        ("Medicare 1EG4-TE5-MK73", ("1EG4-TE5-MK73", T.HEALTHPLAN)),
        ("Medicaid # 44556677", ("44556677", T.HEALTHPLAN)),
        ("DEA AB1234563", ("AB1234563", T.LICENSE)),
        ("NPI 1234567893", ("1234567893", T.LICENSE)),
        ("license 12345X", ("12345X", T.LICENSE)),
        ("lic # D1234567", ("D1234567", T.LICENSE)),
        ("serial SN12345678", ("SN12345678", T.DEVICE)),
        ("device id 9876-AB", ("9876-AB", T.DEVICE)),
        ("pacemaker serial PJN123456", ("PJN123456", T.DEVICE)),
        ("model 5076-52", ("5076-52", T.DEVICE)),
        ("plate 7ABC123", ("7ABC123", T.VEHICLE)),
        ("license plate ABC1234", ("ABC1234", T.VEHICLE)),
        ("VIN 1HGCM82633A004352", ("1HGCM82633A004352", T.VEHICLE)),
        ("fingerprint id FP-88231", ("FP-88231", T.BIOID)),
        ("accession S14-12345", ("S14-12345", T.IDNUM)),
        ("specimen A12-3456", ("A12-3456", T.IDNUM)),
        ("order # 123456", ("123456", T.IDNUM)),
        ("encounter 99887766", ("99887766", T.IDNUM)),
        ("ID: 55667788", ("55667788", T.IDNUM)),
        ("case # 2014-0001", ("2014-0001", T.IDNUM)),
        ("Amoxicillin BID x 5 d, Rx # 448120 to the pharmacy", ("448120", T.IDNUM)),  # a prescription number
        ("Research Unit, Halsey 2     Site # 0417", ("0417", T.IDNUM)),
        ("Site ID 0042-7 enrolled", ("0042-7", T.IDNUM)),
        ("Paid by Visa card ending in 9921.", ("9921", T.ACCOUNT)),
    ],
)
def test_ids_after_cue(text: str, expected: tuple[str, PhiType]) -> None:
    got = found(text)
    assert expected in got
    # Only the identifier is tagged, never the cue word.
    assert all(not text.startswith(span_text) for span_text, _ in got)


def test_license_plate_is_vehicle_not_license() -> None:
    assert found("license plate ABC1234") == {("ABC1234", T.VEHICLE)}


@pytest.mark.parametrize(
    "text",
    [
        "DEA AB1234567",  # bad checksum
        "NPI 1234567890",  # bad Luhn
        "VIN 1HGCM82633A00435",  # 16 chars
        "MRN: pending",
        "MR 2+ and AR",
        "Order 2000 mg",
        "in order to",
        "ID consult called",
        "model 3",
        "in case 12",
        "taking into account 2 falls",
        "Visitors limited per hospital policy.\n2215 son at bedside",
        "Rx 5 mg daily",
        "the surgical site 1234 cm",
        "site of injection 2 cm",
    ],
)
def test_id_look_alikes_not_tagged(text: str) -> None:
    assert found(text) == set()


def test_checksums() -> None:
    assert dea_valid("AB1234563") and not dea_valid("AB1234567") and not dea_valid("IB1234563")
    assert npi_valid("1234567893") and not npi_valid("1234567890") and not npi_valid("123456789")
    assert vin_valid("1HGCM82633A004352") and not vin_valid("1HGCM82633A004353")


def test_vin_without_cue_needs_check_digit() -> None:
    assert ("1HGCM82633A004352", T.VEHICLE) in found("car 1HGCM82633A004352 towed")
    assert found("car 1HGCM82633A004353 towed") == set()


def test_an_id_on_the_line_after_its_cue() -> None:
    assert ("88231745", T.HEALTHPLAN) in found("Policy:\n88231745")


def test_a_rosters_first_column_of_codes() -> None:
    text = "| ID | date |\n| R-201 | 01/07/26 |\n| R-202 | 01/09/26 |\n| R-207 | 01/14/26 |\n"
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    assert {text[s.start : s.end] for s in spans if s.type is PhiType.IDNUM} == {"R-201", "R-202", "R-207"}


def test_billing_codes_and_short_row_labels_are_no_roster() -> None:
    text = "| A0427 | ALS1 |\n| A0433 | ALS2 |\n| A0425 | miles |\n| C-01 | x |\n| C-02 | y |\n| C-03 | z |\n"
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    assert not [s for s in spans if s.type is PhiType.IDNUM]
