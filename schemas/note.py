"""Notes as they move through the pipeline."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from schemas.patient import PatientHeader
from schemas.span import Span


class NoteRecord(BaseModel):
    """One JSONL input line of the CLI: ``{"id", "text", "patient"?}``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1)
    text: str
    patient: PatientHeader | None = None


@dataclass(frozen=True, slots=True)
class EnrichedNote:
    """A note plus whatever header evidence enrichment found for its patient."""

    note_id: str
    text: str
    patient: PatientHeader | None = None

    @classmethod
    def from_record(cls, record: NoteRecord) -> EnrichedNote:
        return cls(note_id=record.id, text=record.text, patient=record.patient)


@dataclass(frozen=True, slots=True)
class DeidentifiedNote:
    note_id: str
    text: str
    spans: tuple[Span, ...]
    """Spans of the *original* text that were replaced (their offsets refer to the input)."""
    patient_pseudonym: str | None = None
