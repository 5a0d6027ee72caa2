"""Data types shared by every layer: the PHI taxonomy, spans, patient headers and notes.

This package is the leaf of the import graph: it imports nothing from ``deid_core`` or ``workers``.
"""

from schemas.note import DeidentifiedNote, EnrichedNote, NoteRecord
from schemas.patient import Address, Identifier, PatientHeader
from schemas.phi import TAXONOMY, PhiCategory, PhiType, PhiTypeInfo, types_in
from schemas.span import Span

__all__ = [
    "TAXONOMY",
    "Address",
    "DeidentifiedNote",
    "EnrichedNote",
    "Identifier",
    "NoteRecord",
    "PatientHeader",
    "PhiCategory",
    "PhiType",
    "PhiTypeInfo",
    "Span",
    "types_in",
]
