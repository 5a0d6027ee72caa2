"""A loaded message as the policy sees it: every structured value as a typed ``Leaf``, plus the notes.

A codec (``deid_core.message.hl7`` / ``fhir`` / ``envelope``) parses raw bytes once into a
``LoadedMessage``. Every value of every field or element that is not note text is one ``Leaf``:
its canonical ``path`` (what policy overrides match), its ``kind`` (from the standard's datatype, not
from a hand list), the PHI type a surrogate of it should have, and a setter. The message path decides
each leaf's fate under the policy and calls ``decide`` exactly once per leaf; ``render`` refuses to
write a message in which any leaf is undecided (fail closed: a value nobody looked at never leaves).

Paths:
- HL7 v2: ``SEG-F.C.S`` (1-based field, component, subcomponent), e.g. ``PID-5.1.1``; the
  repetition is not part of the path.
- FHIR: ``ResourceType.element.element``, e.g. ``Patient.name.given``; list indexes are not part of
  the path, choice elements keep their typed name (``Observation.valueString``).
- JSON envelope: ``$.patient.names``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from schemas.events import EventFormat, NoteText
from schemas.patient import PatientHeader
from schemas.phi import PhiType


class Kind(StrEnum):
    """What a structured value is, derived from its datatype. Policies give each kind a default action."""

    NAME = "name"  # a person's name part (XPN/XCN/PN/CN, HumanName)
    LOCATION = "location"  # facility, ward, room, organisation name (PL, XON, HD names, Location.name)
    ADDRESS = "address"  # address part (XAD/AD, Address); phi_type says which part
    CONTACT = "contact"  # phone, fax, e-mail, URL (XTN/TN, ContactPoint)
    IDENTIFIER = "identifier"  # ids of people, records, messages, resources (CX/EI/..., Identifier, id, Reference)
    DATE = "date"  # dates and timestamps (TS/DTM/DT/DR, date/dateTime/instant/Period)
    TEXT = "text"  # free text (ST/TX/FT, string/markdown/Annotation, CE/CWE text components)
    CODE = "code"  # coded values and system URIs (ID/IS, CE code components, code/Coding.code, uri)
    NUMBER = "number"  # quantities, sequence numbers, booleans
    ATTACHMENT = "attachment"  # encoded payloads (ED/RP, Attachment.data); text ones decoded into ``value``
    UNKNOWN = "unknown"  # a field the standard's tables do not describe (Z-segments, unknown elements)


class Role(StrEnum):
    """Meaning beyond the kind that changes how a value is transformed."""

    NONE = ""
    BIRTH_DATE = "birth_date"  # removed when the person is aged 90 or more (policy: generalize_ages_over)
    PATIENT_ID = "patient_id"  # the patient's own key: becomes the patient pseudonym everywhere


@dataclass(frozen=True, slots=True)
class LeafSpec:
    """What a codec knows about a field or element before seeing a value: for coverage tests and docs."""

    path: str
    kind: Kind
    phi_type: PhiType | None = None
    datatype: str = ""
    types: tuple[str, ...] = ()
    role: Role = Role.NONE


@dataclass(slots=True, eq=False)
class Leaf:
    """One structured value. ``value`` is unescaped (HL7) / decoded (base64 text attachments)."""

    path: str
    kind: Kind
    value: str
    phi_type: PhiType | None = None
    """The surrogate's type for PHI kinds (PATIENT/DOCTOR for names, STREET/ZIP... for addresses)."""
    datatype: str = ""
    """The standard's datatype of the value itself: 'TS', 'DT', 'ST'... or 'date', 'dateTime', 'instant'..."""
    types: tuple[str, ...] = ()
    """Enclosing datatypes, outermost first (e.g. ('XPN', 'FN')): what ``nodesByType`` rules match."""
    role: Role = Role.NONE
    binary: bool = False
    """An attachment that is not text: it can only be kept or dropped."""
    setter: Callable[[str | None], None] = field(default=lambda _v: None, repr=False)
    """Writes the new value; ``None`` removes it (HL7: empties it; FHIR: drops the element)."""
    decided: bool = field(default=False, repr=False)
    result: str | None = field(default=None, repr=False)
    """The value it leaves with (``None``: removed), once decided; for audits and tests."""

    def decide(self, new: str | None) -> None:
        if self.decided:
            raise RuntimeError(f"leaf {self.path} decided twice")
        self.decided = True
        self.result = new
        if new != self.value:
            self.setter(new)


class LoadedMessage(Protocol):
    format: EventFormat
    message_id: str
    """The message's own id (MSH-10, resource id). PHI-bearing: only ever used through a keyed hash."""
    notes: tuple[NoteText, ...]
    patient: PatientHeader | None
    patient_ref: str | None
    demographics_only: bool

    def leaves(self) -> list[Leaf]:
        """Every structured value except note texts, in a stable order; the same objects on every call."""
        ...

    def render(self, note_texts: Sequence[str]) -> bytes:
        """The message with note ``i`` replaced by ``note_texts[i]`` and every leaf as decided.

        Raises ``RuntimeError`` if a leaf is undecided and ``EventParseError`` if the output does not
        re-parse / validate.
        """
        ...


class MessageLoader(Protocol):
    format: EventFormat

    def load(self, raw: bytes) -> LoadedMessage:
        """Parse once. Raises ``EventParseError`` (code + PHI-free message) on bad input."""
        ...
