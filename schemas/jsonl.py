"""Strict JSONL reading of note records with errors that name the line and never echo its content.

Error messages must not carry note text or PHI: pydantic's default messages include the offending
input value, so messages are rebuilt here from the error locations and types only.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from schemas.note import NoteRecord

M = TypeVar("M", bound=BaseModel)


class InputError(ValueError):
    """A bad input line. ``str(err)`` is safe to print: it names the line and the problem, not the data."""

    def __init__(self, source: str, line: int, problem: str) -> None:
        super().__init__(f"{source}: line {line}: {problem}")
        self.source = source
        self.line = line
        self.problem = problem


def describe_validation_error(err: ValidationError) -> str:
    parts = []
    for e in err.errors(include_input=False, include_url=False):
        loc = ".".join(str(p) for p in e["loc"]) or "record"
        parts.append(f"field '{loc}': {e['msg']}")
    return "; ".join(parts)


def parse_jsonl_line(raw: bytes, line_no: int, model: type[M], source: str = "input") -> M:
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(source, line_no, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at byte offset {exc.start})") from None
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(source, line_no, f"invalid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise InputError(source, line_no, f"expected a JSON object, got {type(obj).__name__}")
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        raise InputError(source, line_no, describe_validation_error(exc)) from None


def iter_jsonl(lines: Iterable[bytes], model: type[M], source: str = "input") -> Iterator[tuple[int, M]]:
    """Yield ``(line_number, record)`` for each non-blank line; raise ``InputError`` on the first bad one."""
    for line_no, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        yield line_no, parse_jsonl_line(raw.rstrip(b"\r\n"), line_no, model, source)


def read_note_records(lines: Iterable[bytes], source: str = "input") -> list[NoteRecord]:
    return [record for _, record in iter_jsonl(lines, NoteRecord, source)]
