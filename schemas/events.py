"""Incoming events (HL7 v2, FHIR R4, JSON envelope): their formats, note texts and parse errors.

The loaded-message model every format is read into is ``schemas.message``. Parse errors carry a short
machine-readable code and a message that never quotes the input.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


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
