"""Incoming events (HL7 v2, FHIR R4, JSON envelope) as the pipeline sees them, and the codec seam.

A codec parses raw bytes into a ``ParsedMessage`` (the note texts plus what the header says about the
patient) and renders the de-identified message back in the same format: the note texts replaced, and
every header value that is PHI replaced by the surrogate the worker computed for it. Parse errors
carry a short machine-readable code and a message that never quotes the input.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from schemas.patient import PatientHeader
from schemas.phi import PhiType


class EventFormat(StrEnum):
    HL7V2 = "hl7v2"
    FHIR = "fhir"
    JSON = "json"


class EventParseError(ValueError):
    """Bad input. ``code`` is stable (for dead-letter headers and metrics); ``str(err)`` has no PHI."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class NoteText:
    note_id: str
    """Stable across redeliveries: derived from the message (control id / resource id) and position."""
    text: str


@dataclass(frozen=True, slots=True)
class ParsedMessage:
    format: EventFormat
    message_id: str
    notes: tuple[NoteText, ...]
    patient: PatientHeader | None
    """Header data carried by the message itself (PID/NK1/PV1, FHIR Patient, envelope)."""
    patient_ref: str | None = None
    """The patient id the notes belong to, for enrichment from the demographics table."""
    demographics_only: bool = False
    """ADT and bare Patient events: they update the demographics table and carry no note."""


HeaderSurrogates = Mapping[tuple[PhiType, str], str]
"""Surrogate for each (type, original value) returned by ``MessageCodec.header_values``."""


class MessageCodec(Protocol):
    format: EventFormat

    def parse(self, raw: bytes) -> ParsedMessage: ...

    def header_values(self, raw: bytes) -> list[tuple[PhiType, str]]:
        """Every PHI value in the message's structured fields, typed, in a stable order."""
        ...

    def render(self, raw: bytes, texts: Sequence[str], surrogates: HeaderSurrogates) -> bytes:
        """The same message with note ``i``'s text replaced by ``texts[i]`` and header PHI replaced.

        Raises ``KeyError`` rather than emit a header value with no surrogate (fail closed).
        """
        ...
