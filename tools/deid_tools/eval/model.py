"""Data types of the evaluation library: gold documents, load results and the input error."""

from __future__ import annotations

from dataclasses import dataclass

from schemas import Span


class EvalInputError(ValueError):
    """Gold or prediction input that cannot be evaluated.

    The message names the file and the line (JSONL) or element (XML) and the problem; it never quotes
    note text or PHI values.
    """


@dataclass(frozen=True, slots=True)
class GoldDoc:
    """One annotated note: ``text[span.start:span.end]`` is gold PHI of ``span.type``."""

    id: str
    text: str
    spans: tuple[Span, ...]


@dataclass(frozen=True, slots=True)
class GoldSet:
    """What :func:`read_gold` found: the documents plus non-fatal problems.

    ``warnings`` are messages (file, element, problem; no PHI) for annotation defects that the real
    i2b2 data has a few of, such as a ``text`` attribute that differs from the slice its offsets select.
    The offsets are trusted in that case.
    """

    docs: tuple[GoldDoc, ...]
    warnings: tuple[str, ...] = ()
