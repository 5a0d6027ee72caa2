"""Synthetic clinical notes with gold PHI spans, for evaluation and for training the neural tagger.

No real patient data: values come from a seeded Faker (en_US) and curated pools. Notes are rendered
from template families; each family belongs to one split so that the test split measures
generalisation beyond the phrasings seen in training.
"""

from deid_tools.corpus.generate import (
    GoldNote,
    generate_notes,
    note_from_json,
    note_to_json,
    read_jsonl,
    render_note,
    write_jsonl,
)
from deid_tools.corpus.split import TEMPLATE_FAMILIES, families, note_kinds

__all__ = [
    "TEMPLATE_FAMILIES",
    "GoldNote",
    "families",
    "generate_notes",
    "note_from_json",
    "note_kinds",
    "note_to_json",
    "read_jsonl",
    "render_note",
    "write_jsonl",
]
