"""An offset-keeping tokenizer that splits glued tokens.

Clinical text glues things together (``Results02/20/2087``, ``MC#0937884Date``, ``JohnSmith``); a
whitespace tokenizer would make such a token half PHI, which caps recall. Tokens here are runs of
lowercase letters with an optional leading capital, runs of capitals, runs of digits, or single other
characters, so letter/digit and lower/upper transitions become token boundaries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from deid_core.textfold import fold_accents

TOKEN_PATTERN = (
    r"[A-Z]+(?=[A-Z][a-z])"  # the acronym in "MRIScan"
    r"|[A-Z]?[a-z]+"  # "Smith", "smith"
    r"|[A-Z]+"  # "SMITH"
    r"|\d+"
    r"|[^\W\d_A-Za-z]+"  # other alphabets and accented letters, kept whole
    r"|[^\s]"  # any other single character: punctuation, symbols, underscore
)
_TOKEN = re.compile(TOKEN_PATTERN)


@dataclass(frozen=True, slots=True)
class Token:
    start: int
    end: int
    text: str
    space_before: bool


def tokenize(text: str) -> list[Token]:
    # The pattern's case classes are ASCII: it runs over the folded text, or "Sinéad" would split into
    # "Sin", "é", "ad" and "José" into "Jos", "é".
    tokens: list[Token] = []
    prev_end = 0
    for m in _TOKEN.finditer(fold_accents(text)):
        start, end = m.span()
        tokens.append(Token(start, end, text[start:end], start == 0 or start != prev_end))
        prev_end = end
    return tokens


def casing_class(token: str) -> int:
    """A small casing feature: the seeds found word shape informative for names and IDs."""
    if token.isdigit():
        return 1
    if token.isalpha():
        if token.islower():
            return 2
        if token.isupper():
            return 3 if len(token) > 1 else 4
        if token[0].isupper():
            return 5
        return 6
    return 7


N_CASING_CLASSES = 8  # 0 is padding
