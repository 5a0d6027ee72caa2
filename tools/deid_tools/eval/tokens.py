"""The offset-keeping tokenizer behind token-level scores."""

from __future__ import annotations

import re
from typing import NamedTuple

TOKEN_RE = re.compile(r"\w+|[^\w\s]")
_WORD_RE = re.compile(r"\w+")


class Token(NamedTuple):
    start: int
    end: int


def tokenize(text: str) -> list[Token]:
    """Runs of word characters and single other non-space characters, with ``str`` offsets."""
    return [Token(*m.span()) for m in TOKEN_RE.finditer(text)]


def scored_tokens(text: str) -> list[Token]:
    """The tokens of :func:`tokenize` minus pure punctuation, i.e. exactly the ``\\w+`` runs."""
    return [Token(*m.span()) for m in _WORD_RE.finditer(text)]
