"""Generate gold notes: synthetic text plus exact PHI spans and a consistent patient header."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TextIO

from deid_tools.corpus.render import GOLD, Builder, Noise, Renderer
from deid_tools.corpus.split import families, note_kinds
from deid_tools.corpus.templates import ADDENDA, MISC, SPLITS, FamilySpec
from deid_tools.corpus.values import make_cast
from schemas import PatientHeader, PhiType, Span

if TYPE_CHECKING:
    from faker import Faker

Split = Literal["train", "dev", "test"]


SHORT_KINDS = frozenset({"refill_request", "ecg_report", "lab_comment", "header_block", "email_thread", "lab_callback",
                         "phone_triage", "portal_thread", "nursing_flowsheet"})


@dataclass(frozen=True)
class GoldNote:
    id: str
    text: str
    spans: tuple[Span, ...]
    patient: PatientHeader
    kind: str
    family: str
    split: str


def _new_faker() -> Faker:
    from faker import Faker

    return Faker("en_US")


def render_note(spec: FamilySpec, note_id: str, split: str, rng: random.Random, fake: Faker) -> GoldNote:
    """Render one note of ``spec``; ``rng`` and ``fake`` must already be seeded for this note."""
    cast = make_cast(fake, rng, "", pediatric=spec.pediatric)
    noise = Noise.level(spec.noise * rng.choice((0.0, 0.5, 1.0, 1.0, 1.5)))
    builder = Builder(rng, noise, spec.case)
    addenda = ADDENDA[split] if spec.kind not in SHORT_KINDS and rng.random() < 0.35 else ()
    Renderer(cast, fake, rng, builder, MISC[split], addenda).render_sections(spec.sections)
    text = builder.text_so_far().rstrip() + "\n"
    spans = tuple(builder.spans)
    check_spans(text, spans)
    return GoldNote(id=note_id, text=text, spans=spans, patient=cast.header(), kind=spec.kind, family=spec.name,
                    split=split)


def check_spans(text: str, spans: tuple[Span, ...]) -> None:
    """Gold invariants: sorted, non-overlapping, inside the text, no surrounding whitespace."""
    prev_end = 0
    for s in spans:
        if s.start < prev_end:
            raise AssertionError(f"gold spans overlap or are unsorted at {s.start}")
        if s.end > len(text):
            raise AssertionError("gold span past the end of the text")
        value = text[s.start:s.end]
        if value != value.strip() or not value:
            raise AssertionError(f"gold span {s.start}:{s.end} has surrounding whitespace")
        prev_end = s.end


def generate_notes(split: Split, n: int, seed: int = 0) -> Iterator[GoldNote]:
    """``n`` notes from ``split``'s families; deterministic for ``(split, n, seed)``.

    Kinds are dealt round-robin (reshuffled every round) so that every kind appears about equally often;
    within a kind the family is drawn at random. Each note gets its own ``Random`` and Faker seed derived
    from ``(split, seed, index)``, so note ``i`` is the same whatever ``n`` is.
    """
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
    kinds = list(note_kinds(split))
    by_kind = {k: [f for f in families(split) if f.kind == k] for k in kinds}
    order_rng = random.Random(f"deid-corpus/order/{split}/{seed}")
    fake = _new_faker()
    cycle: list[str] = []
    for i in range(n):
        if i % len(kinds) == 0:
            cycle = kinds[:]
            order_rng.shuffle(cycle)
        rng = random.Random(f"deid-corpus/note/{split}/{seed}/{i}")
        spec = rng.choice(by_kind[cycle[i % len(kinds)]])
        fake.seed_instance(rng.getrandbits(63))
        yield render_note(spec, f"{split}-{seed}-{i:05d}", split, rng, fake)


def note_to_json(note: GoldNote) -> dict[str, Any]:
    return {
        "id": note.id,
        "text": note.text,
        "spans": [s.to_json() for s in note.spans],
        "patient": note.patient.model_dump(mode="json"),
        "kind": note.kind,
        "family": note.family,
        "split": note.split,
    }


def note_from_json(d: dict[str, Any]) -> GoldNote:
    spans = tuple(Span(int(s["start"]), int(s["end"]), PhiType.parse(s["type"]), 1.0, GOLD, "gold") for s in d["spans"])
    return GoldNote(id=d["id"], text=d["text"], spans=spans, patient=PatientHeader.model_validate(d["patient"]),
                    kind=d["kind"], family=d["family"], split=d["split"])


def write_jsonl(notes: Iterable[GoldNote], path: Path | TextIO) -> int:
    """Write one JSON object per line; returns the number of notes written."""
    if isinstance(path, Path):
        with path.open("w", encoding="utf-8") as fh:
            return write_jsonl(notes, fh)
    count = 0
    for note in notes:
        path.write(json.dumps(note_to_json(note), ensure_ascii=False) + "\n")
        count += 1
    return count


def read_jsonl(path: Path | TextIO) -> Iterator[GoldNote]:
    if isinstance(path, Path):
        with path.open(encoding="utf-8") as fh:
            yield from read_jsonl(fh)
        return
    for line in path:
        if line.strip():
            yield note_from_json(json.loads(line))
