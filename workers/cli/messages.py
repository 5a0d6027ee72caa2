"""``deid deidentify``: the worker's message path on files, folders and stdin, for backfills and one-offs.

Two input shapes:
- ``--format jsonl`` (default): note records ``{"id", "text", "patient"?}``, one per line; each record goes
  through the message path as a JSON envelope and comes out as ``{"id", "text", "spans"}``.
- ``--format hl7|fhir|json|auto``: whole messages, one per file (a folder is every regular file in it,
  sorted, without hidden ones); each comes out in its own format, de-identified under ``--policy``.

Everything is read, parsed and de-identified before anything is written: a bad file means a clear error
naming the file and an error code, exit 2 and no output (``--skip-invalid`` writes the others instead).
No message echoes input values.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deid_core.message.path import MessagePipeline
from schemas import DeidentifiedNote, NoteRecord
from schemas.events import EventFormat, EventParseError

FORMATS = ("jsonl", "auto", "hl7", "fhir", "json")
_FORMAT_OF = {"hl7": EventFormat.HL7V2, "fhir": EventFormat.FHIR, "json": EventFormat.JSON, "auto": None}


class DeidentifyError(Exception):
    """Safe to show; ``bad_input`` selects exit code 2."""

    def __init__(self, message: str, bad_input: bool = False) -> None:
        super().__init__(message)
        self.bad_input = bad_input


@dataclass(frozen=True, slots=True)
class InputFile:
    name: str
    """Shown in errors and used as the output name: the path as given, or 'stdin'."""
    raw: bytes


def read_inputs(path: str | None) -> list[InputFile]:
    if path in (None, "-"):
        return [InputFile("stdin", sys.stdin.buffer.read())]
    p = Path(path)
    try:
        if p.is_dir():
            files = sorted(f for f in p.iterdir() if f.is_file() and not f.name.startswith("."))
            if not files:
                raise DeidentifyError(f"input folder {path} holds no files", bad_input=True)
            return [InputFile(f.name, f.read_bytes()) for f in files]
        return [InputFile(p.name, p.read_bytes())]
    except OSError as exc:
        raise DeidentifyError(f"cannot read input {path}: {exc.strerror}") from None


def write_outputs(outputs: Sequence[tuple[str, bytes]], path: str | None, folder_input: bool) -> None:
    if path in (None, "-"):
        if len(outputs) > 1:
            raise DeidentifyError("several input files need -o FOLDER")
        for _, data in outputs:
            sys.stdout.buffer.write(data + (b"" if data.endswith((b"\n", b"\r")) else b"\n"))
        sys.stdout.flush()
        return
    out = Path(path)
    try:
        if folder_input or len(outputs) > 1:
            out.mkdir(parents=True, exist_ok=True)
            for name, data in outputs:
                (out / name).write_bytes(data)
        else:
            out.write_bytes(outputs[0][1])
    except OSError as exc:
        raise DeidentifyError(f"cannot write output {path}: {exc.strerror}") from None


async def deidentify_messages(
    pipeline: MessagePipeline, inputs: Sequence[InputFile], fmt: EventFormat | None, batch_size: int, skip_invalid: bool, bar: Any
) -> list[tuple[str, bytes]]:
    """Load every input, then de-identify in batches; demographics messages enrich the ones after them."""
    from deid_core.enrich import merge_headers
    from workers.processor import InMemoryDemographics

    loaded = []
    errors = []
    for item in inputs:
        try:
            loaded.append((item.name, pipeline.load(item.raw, fmt)))
        except EventParseError as exc:
            errors.append(f"{item.name}: {exc.code}: {exc.message}")
    results: list[tuple[str, bytes]] = []
    if not errors or skip_invalid:
        table = InMemoryDemographics()
        for i in range(0, len(loaded), batch_size):
            chunk = loaded[i : i + batch_size]
            items = []
            for _, message in chunk:
                if message.demographics_only and message.patient is not None:
                    table.put(message.patient)
                ref = message.patient_ref or (message.patient.patient_id if message.patient else None)
                items.append((message, merge_headers(message.patient, table.get(ref) if ref else None)))
            for (name, _), result in zip(chunk, await pipeline.deidentify(items), strict=True):
                if isinstance(result, EventParseError):
                    errors.append(f"{name}: {result.code}: {result.message}")
                else:
                    results.append((name, result.output))
            bar.update(len(chunk))
    if errors and not skip_invalid:
        shown = "; ".join(errors[:10]) + (f"; and {len(errors) - 10} more" if len(errors) > 10 else "")
        raise DeidentifyError(f"{len(errors)} of {len(inputs)} inputs failed ({shown})", bad_input=True)
    for line in errors:
        print(f"deid deidentify: skipped {line}", file=sys.stderr)
    return results


async def deidentify_records(
    pipeline: MessagePipeline, records: Sequence[NoteRecord], batch_size: int, bar: Any
) -> list[DeidentifiedNote]:
    """Note records through the message path as JSON envelopes; the notes come back, ids as given."""
    out: list[DeidentifiedNote] = []
    for i in range(0, len(records), batch_size):
        chunk = records[i : i + batch_size]
        messages = [pipeline.load(r.model_dump_json(exclude_none=True).encode(), EventFormat.JSON) for r in chunk]
        results = await pipeline.deidentify([(m, m.patient) for m in messages])
        for record, result in zip(chunk, results, strict=True):
            if isinstance(result, EventParseError):  # an envelope we built ourselves always renders
                raise DeidentifyError(f"a record could not be rendered ({result.code})")
            note = result.notes[0]
            out.append(DeidentifiedNote(record.id, note.text, note.spans, note.patient_pseudonym))
        bar.update(len(chunk))
    return out


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format", choices=FORMATS, default="jsonl",
        help="jsonl: note records {id, text, patient?} per line (default); hl7, fhir, json or auto: "
        "whole messages, one per file, written back in their own format",
    )  # fmt: skip
    p.add_argument("--skip-invalid", action="store_true", help="with a message format: write the valid files and list the others")


def rows(results: Sequence[DeidentifiedNote]) -> Any:
    return ({"id": r.note_id, "text": r.text, "spans": [s.to_json() for s in r.spans]} for r in results)


def format_of(name: str) -> EventFormat | None:
    return _FORMAT_OF[name]
