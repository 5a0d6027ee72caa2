"""What every ``deid`` command shares: exit codes, the errors it may show, JSONL in and out, the progress bar.

Nothing here prints note text or PHI: error messages name files and error codes only.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Sequence
from typing import IO, Any

from schemas import NoteRecord, Span
from schemas.jsonl import read_note_records

log = logging.getLogger("deid.cli")

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1

DEFAULT_BATCH_SIZE = 128
"""Notes per tagger call for the CLI commands. Larger calls share the recurrence's fixed cost per step
among more rows: 128 notes cost about 15 % less tagger CPU than 32 (bench/detect_stages.py
--batch-size); the forked workers keep both cores busy with calls this large (deid_core.forked)."""


class CliError(Exception):
    """An error whose message is safe and sufficient to show the user."""


class BadInputError(CliError):
    """Bad input (exit code 2); the message names files and error codes, never their content."""


class ToolingMissingError(BadInputError):
    """A tooling command (corpus, train, eval, demo) where deid-stream-tools is not installed (exit code 2)."""


TOOLING_MISSING = "this command needs the tooling: pip install -e tools/ (deid-stream-tools)"


def require_tooling() -> None:
    """The corpus, evaluation and training live in their own distribution (tools/), which the worker image
    leaves out; the commands that use them check for it before importing anything from it."""
    import importlib.util

    if importlib.util.find_spec("deid_tools") is None:
        raise ToolingMissingError(TOOLING_MISSING)


def open_input(path: str | None) -> IO[bytes]:
    if path in (None, "-"):
        return sys.stdin.buffer
    try:
        return open(path, "rb")  # noqa: SIM115 - closed by the caller
    except OSError as exc:
        raise CliError(f"cannot open input {path}: {exc.strerror}") from None


def read_records(path: str | None) -> list[NoteRecord]:
    stream = open_input(path)
    try:
        return read_note_records(stream, source=path if path not in (None, "-") else "stdin")
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def open_output(path: str | None) -> IO[str]:
    if path in (None, "-"):
        return sys.stdout
    try:
        return open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by the caller
    except OSError as exc:
        raise CliError(f"cannot open output {path}: {exc.strerror}") from None


def spans_json(spans: Sequence[Span]) -> list[dict[str, object]]:
    return [s.to_json() for s in spans]


class Bar:
    """A progress bar on stderr (by default only when stderr is a terminal), or nothing."""

    def __init__(self, total: int, desc: str, enabled: bool | None) -> None:
        show = sys.stderr.isatty() if enabled is None else enabled
        self._bar: Any = None
        if show:
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=desc, unit="note", file=sys.stderr)

    def update(self, n: int) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def write_jsonl(out: IO[str], rows: Any) -> int:
    n = 0
    for row in rows:
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
        n += 1
    out.flush()
    return n


def write_output(path: str | None, rows: Any) -> int:
    out = open_output(path)
    try:
        return write_jsonl(out, rows)
    finally:
        if out is not sys.stdout:
            out.close()
