"""Strict JSONL reading of note records with errors that name the line and never echo its content.

Error messages must not carry note text or PHI: pydantic's default messages include the offending
input value, so messages are rebuilt here from the error locations and types only.
"""

from __future__ import annotations

import json
import re
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


# Error types whose pydantic messages never quote the input; others are shown by their type alone,
# since messages of value errors (and of custom validators) can repeat the offending value.
_SAFE_MESSAGES = frozenset(
    {"missing", "extra_forbidden", "string_type", "int_type", "bool_type", "list_type", "dict_type", "model_type",
     "string_too_short", "string_too_long", "too_short", "too_long", "date_type", "date_from_datetime_parsing"}
)  # fmt: skip
_SAFE_LOC = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")


def describe_validation_error(err: ValidationError) -> str:
    """Locations and error kinds, never values, and never a key the sender invented."""
    parts = []
    for e in err.errors(include_input=False, include_url=False):
        loc = list(e["loc"])
        if e["type"] == "extra_forbidden" and loc:
            loc[-1] = "<unknown field>"
        shown = [str(p) if isinstance(p, int) or _SAFE_LOC.match(str(p)) else "<redacted>" for p in loc]
        what = e["msg"] if e["type"] in _SAFE_MESSAGES else f"invalid value ({e['type']})"
        parts.append(f"field '{'.'.join(shown) or 'record'}': {what}")
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
