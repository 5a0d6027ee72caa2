"""Compile the hand-written evaluation notes into ``gold.jsonl``.

Each ``notes/NN_<style>.txt`` file is one note with inline markup ``[[surface text|TYPE]]`` around every
PHI span. The text outside the markup is the note text exactly (trailing newlines at the end of the file
are dropped). The output has one JSON line per note, sorted by file name::

    {"id": "hw-NN", "kind": "<style>", "text": "...", "spans": [{"start": 0, "end": 5, "type": "PATIENT"}]}

Offsets are Python string offsets, end exclusive. Malformed markup, unknown types or badly placed
spans stop the build with a message naming the file and line. Standard library only, so it runs with
any Python >= 3.11::

    python eval/handwritten/build.py            # writes eval/handwritten/gold.jsonl, prints counts
    python eval/handwritten/build.py --check    # exits 1 if gold.jsonl is stale
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOTES_DIR = HERE / "notes"
GOLD_PATH = HERE / "gold.jsonl"

# The i2b2 2014 subtypes, spelled as in schemas.phi.PhiType (kept here so the script needs no imports).
PHI_TYPES: tuple[str, ...] = (
    "PATIENT", "DOCTOR", "USERNAME",
    "PROFESSION",
    "ROOM", "DEPARTMENT", "HOSPITAL", "ORGANIZATION", "STREET", "CITY", "STATE", "COUNTRY", "ZIP",
    "LOCATION-OTHER",
    "AGE",
    "DATE",
    "PHONE", "FAX", "EMAIL", "URL", "IPADDR",
    "SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM",
)

OPEN, CLOSE, SEP = "[[", "]]", "|"
FILE_NAME = re.compile(r"(?P<num>\d{2})_(?P<kind>[a-z][a-z0-9_]*)\.txt")


class MarkupError(ValueError):
    """A note file whose markup cannot be compiled."""


@dataclass(frozen=True, slots=True)
class GoldSpan:
    start: int
    end: int
    type: str


def _where(source: str, raw: str, pos: int) -> str:
    line = raw.count("\n", 0, pos) + 1
    col = pos - (raw.rfind("\n", 0, pos) + 1) + 1
    return f"{source}:{line}:{col}"


def parse_note(raw: str, source: str = "<note>") -> tuple[str, list[GoldSpan]]:
    """Strip the markup from ``raw``; return the plain text and its spans (sorted, non-overlapping)."""
    raw = raw.rstrip("\n")
    out: list[str] = []
    spans: list[GoldSpan] = []
    length = 0
    pos = 0
    while True:
        opened = raw.find(OPEN, pos)
        stray_close = raw.find(CLOSE, pos, opened if opened >= 0 else len(raw))
        if stray_close >= 0:
            raise MarkupError(f"{_where(source, raw, stray_close)}: ']]' outside markup")
        if opened < 0:
            out.append(raw[pos:])
            break
        out.append(raw[pos:opened])
        length += opened - pos
        closed = raw.find(CLOSE, opened + len(OPEN))
        if closed < 0:
            raise MarkupError(f"{_where(source, raw, opened)}: '[[' is never closed")
        body = raw[opened + len(OPEN):closed]
        if OPEN in body:
            raise MarkupError(f"{_where(source, raw, opened)}: nested '[['")
        if body.count(SEP) != 1:
            raise MarkupError(f"{_where(source, raw, opened)}: markup needs exactly one '|': [[{body}]]")
        surface, type_ = body.split(SEP)
        if type_ not in PHI_TYPES:
            raise MarkupError(f"{_where(source, raw, opened)}: unknown PHI type {type_!r}")
        if not surface.strip():
            raise MarkupError(f"{_where(source, raw, opened)}: blank span text")
        if surface != surface.strip():
            raise MarkupError(f"{_where(source, raw, opened)}: span text {surface!r} has outer whitespace")
        spans.append(GoldSpan(length, length + len(surface), type_))
        out.append(surface)
        length += len(surface)
        pos = closed + len(CLOSE)
    text = "".join(out)
    for span in spans:
        if not 0 <= span.start < span.end <= len(text):  # pragma: no cover - guaranteed by construction
            raise MarkupError(f"{source}: span {span} outside the text")
    return text, spans


def build_records(notes_dir: Path = NOTES_DIR, id_prefix: str = "hw") -> list[dict[str, object]]:
    """One gold record (id ``<id_prefix>-NN``) per ``NN_<style>.txt`` file of ``notes_dir``, by file name."""
    files = sorted(p for p in notes_dir.iterdir() if p.is_file())
    if not files:
        raise MarkupError(f"{notes_dir}: no note files")
    records: list[dict[str, object]] = []
    seen: set[str] = set()
    for path in files:
        match = FILE_NAME.fullmatch(path.name)
        if match is None:
            raise MarkupError(f"{path}: file name must look like NN_<style>.txt")
        note_id = f"{id_prefix}-{match['num']}"
        if note_id in seen:
            raise MarkupError(f"{path}: duplicate note number {match['num']}")
        seen.add(note_id)
        try:
            raw = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise MarkupError(f"{path}: not valid UTF-8") from None
        if "\r" in raw:
            raise MarkupError(f"{path}: carriage returns are not allowed (use LF line endings)")
        text, spans = parse_note(raw, str(path.relative_to(notes_dir.parent)))
        records.append({
            "id": note_id,
            "kind": match["kind"],
            "text": text,
            "spans": [{"start": s.start, "end": s.end, "type": s.type} for s in spans],
        })
    return records


def render_jsonl(records: list[dict[str, object]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def _counts(records: list[dict[str, object]]) -> str:
    by_type: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    notes_by_kind: Counter[str] = Counter()
    for record in records:
        spans = record["spans"]
        assert isinstance(spans, list)
        kind = str(record["kind"])
        notes_by_kind[kind] += 1
        by_kind[kind] += len(spans)
        by_type.update(str(s["type"]) for s in spans)
    total = sum(by_type.values())
    lines = [f"{len(records)} notes, {total} spans", "", "spans per type:"]
    lines += [f"  {t:<15} {by_type[t]:>5}" for t in PHI_TYPES]
    lines += ["", "notes / spans per style:"]
    lines += [f"  {k:<22} {notes_by_kind[k]:>3} {by_kind[k]:>5}" for k in sorted(notes_by_kind)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=Path, default=NOTES_DIR, help="folder of NN_<style>.txt notes")
    parser.add_argument("--out", type=Path, default=GOLD_PATH, help="gold JSONL to write")
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if --out is stale")
    parser.add_argument("--id-prefix", default="hw", help="record ids are <prefix>-NN (default: hw)")
    args = parser.parse_args(argv)
    try:
        records = build_records(args.notes, args.id_prefix)
    except MarkupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rendered = render_jsonl(records)
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else None
        if current != rendered:
            print(f"{args.out} is stale; run python {Path(__file__).name}", file=sys.stderr)
            return 1
    else:
        args.out.write_text(rendered, encoding="utf-8")
    print(_counts(records))
    return 0


if __name__ == "__main__":
    sys.exit(main())
