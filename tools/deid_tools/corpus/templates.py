"""Template families: the unit of the train/dev/test split.

Each family is one phrasing and structure of one note kind, written in the DSL of
:func:`deid_tools.corpus.render.parse_family`. A family belongs to exactly one split, so test notes are
phrased in ways the training notes never were. ``MISC`` holds free-standing sentences carrying the rarer
PHI types; it is partitioned by split for the same reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from deid_tools.corpus.render import Section, parse_family

SPLITS: tuple[str, ...] = ("train", "dev", "test")


@dataclass(frozen=True)
class FamilySpec:
    name: str
    kind: str
    split: str
    text: str
    case: str = ""  # "", "lower" or "upper": applied to the whole note, PHI included
    noise: float = 1.0
    pediatric: bool = False

    def __post_init__(self) -> None:
        if self.split not in SPLITS:
            raise ValueError(f"family {self.name}: unknown split {self.split!r}")

    @cached_property
    def sections(self) -> tuple[Section, ...]:
        return parse_family(self.text)


MISC: dict[str, tuple[str, ...]] = {
    "train": (
        "Pt drives a {plate} registered to {nokw} per security report.",
        "Vehicle plate {plate} left in the ED lot overnight; security notified.",
        "Pacemaker {device} interrogated, normal function.",
        "ICD serial no. {device}, last shock none.",
        "Insulin pump serial {device} checked by educator.",
        "Biometric badge ID {bioid} on file with employee health.",
        "Fingerprint record {bioid} used for controlled-substance cabinet access.",
        "Portal access from IP {ip} flagged for review.",
        "Info sheet at {url} given.",
        "Prescriber DEA {lic}.",
        "NPI: {lic}",
        "Emigrated from {country} in {date:past:year}.",
        "Recently traveled to {country}.",
        "Fell while hiking at {loc} last summer.",
        "Lives near {loc}.",
        "Chart reviewed by {user:1} on {date:recent:num}.",
        "Order entered by {user} at {time}.",
        "Insurance: {ins} ID {hp}.",
        "Billing acct {acct}.",
        "SSN on file: {ssn}.",
        "Fax results to {fax}.",
        "Works for {org} as {aprof}.",
        "Reference no. {idnum}.",
    ),
    "dev": (
        "Driving a car with plate {plate}; advised not to drive after sedation.",
        "Hearing aid serial {device} reported lost.",
        "Retinal scan ID {bioid} stored in research biobank consent.",
        "Telehealth session connected from {ip}.",
        "Resources: {url}",
        "License no. {lic} (prescriber).",
        "Born in {country}, moved to {city} as a teenager.",
        "Was at {loc} when symptoms began.",
        "Note co-signed, user {user}.",
        "Plan ID {hp} with {ins}.",
        "Acct no {acct}",
        "Social security # {ssn}",
        "Fax {fax}",
        "Employed by {org}.",
        "Request number {idnum}.",
        "VIN {vin} listed on accident report.",
    ),
    "test": (
        "Patient's truck (tag {plate}) was towed from the hospital garage.",
        "Accident report lists vehicle VIN {vin}.",
        "CPAP machine SN {device} returned to vendor.",
        "Neurostimulator serial number {device} programmed today.",
        "Voice-print enrollment {bioid} completed for phone refills.",
        "Palm vein scan ID {bioid} linked to the record.",
        "Remote login recorded from address {ip}.",
        "She was pointed to {url} for more information.",
        "Controlled-substance license {lic} verified.",
        "Grew up in {country}; speaks limited English.",
        "Spent the weekend at {loc} before admission.",
        "Entry amended by {user} ({time}).",
        "Coverage: {ins} member {hp}.",
        "Guarantor account {acct}.",
        "SS# {ssn} verified against ID.",
        "Faxed to {fax} per request.",
        "Currently employed at {org}.",
        "Case ref {idnum}.",
        "Lives at {street}, {city} {state:1} {zip}.",
        "Room {room} on {dept}.",
    ),
}


ADDENDA: dict[str, tuple[str, ...]] = {
    "train": (
        "ADDENDUM {date:visit:num} {time}: {course} Discussed with {dr:att}. {sig}",
        "Addendum: {hpi:long} Plan reviewed with {pt:title} and {his} {nokw}. -- {dr:res:md}",
        "Late entry ({date:recent:short}): {course} {plan}",
        "Attending addendum: I have seen and examined the patient with {dr:res:dr}. {course} {dr:att:md}",
    ),
    "dev": (
        "addendum {date:visit:num}: {course} d/w {dr:att:init}",
        "ADDENDUM - {hpi:long} {plan} {sig:res}",
        "Correction {date:recent:num}: {course}",
    ),
    "test": (
        "Supplementary entry written {wd:visit} at {time}: {course} Reviewed with {pt:first}. {dr:att:drfull}",
        "Additional information obtained later from {his} {nokw}: {hpi:long} {plan}",
        "Teaching physician statement: I personally evaluated {pt:title} together with {dr:res:drfull}. {course}",
    ),
}
"""Optional closing entries, appended to some notes of the longer kinds; partitioned by split like ``MISC``."""
