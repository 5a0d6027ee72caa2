"""What the message header or the demographics table tells us about a note's patient.

Every value here is PHI; the header matcher uses them as detection evidence and the surrogate step
replaces them in the header itself. Only ``patient_id`` is required so that plain-text callers can send
``{"patient_id": "p1", "names": ["Ann Lee"]}``.
"""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict, Field, field_validator

from schemas.phi import PhiType


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)


class Identifier(_Frozen):
    """A typed identifier, e.g. an MRN, account or health-plan number."""

    value: str = Field(min_length=1)
    type: PhiType = PhiType.IDNUM
    system: str | None = Field(default=None, description="assigning authority or code system, not PHI itself")

    @field_validator("type", mode="before")
    @classmethod
    def _parse_type(cls, v: object) -> object:
        return PhiType.parse(v) if isinstance(v, str) else v


class Address(_Frozen):
    street: list[str] = Field(default_factory=list, description="street lines, e.g. ['12 Oak St', 'Apt 4']")
    city: str | None = None
    state: str | None = None
    zip: str | None = None
    country: str | None = None


class PatientHeader(_Frozen):
    patient_id: str = Field(min_length=1, description="the source system's patient key; becomes a pseudonym on output")
    names: list[str] = Field(default_factory=list, description="'First Middle Last' or 'Last, First' spellings")
    mrn: str | None = None
    identifiers: list[Identifier] = Field(default_factory=list)
    birth_date: dt.date | None = None
    sex: str | None = Field(default=None, description="administrative sex as sent (F, M, O, U, female, ...)")
    address: Address | None = None
    phones: list[str] = Field(default_factory=list)
    emails: list[str] = Field(default_factory=list)
    next_of_kin: list[str] = Field(default_factory=list, description="names of relatives and contacts")
    doctors: list[str] = Field(default_factory=list, description="attending, referring and consulting doctors")

    def all_identifiers(self) -> list[Identifier]:
        """The MRN (if any) as a MEDICALRECORD identifier, then the others."""
        ids = list(self.identifiers)
        if self.mrn:
            ids.insert(0, Identifier(value=self.mrn, type=PhiType.MEDICALRECORD))
        return ids
