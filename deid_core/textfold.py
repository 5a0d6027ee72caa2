"""Accented Latin letters folded to their base letters, one character for one.

Word lists and the tagger's vocabularies are ASCII (the 1990 Census lists, the synthetic training text);
"Sinéad", "Teófilo" and "João" are found in them as "Sinead", "Teofilo" and "Joao". Offsets hold, since
each accented letter becomes exactly one letter.
"""

from __future__ import annotations

import unicodedata
from functools import cache


@cache
def latin_folds() -> dict[str, str]:
    """Accented Latin letter (U+00C0-U+024F) -> its ASCII base letter ("é" -> "e"; "Ø", with none, is
    left out)."""
    out: dict[str, str] = {}
    for code in range(0xC0, 0x250):
        ch = chr(code)
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        if len(base) == 1 and base.isascii() and base.isalpha():
            out[ch] = base
    return out


@cache
def _fold_table() -> dict[int, int]:
    return {ord(k): ord(v) for k, v in latin_folds().items()}


def fold_accents(text: str) -> str:
    """Accented Latin letters as their base letters, one character for one, so offsets hold."""
    return text if text.isascii() else text.translate(_fold_table())
