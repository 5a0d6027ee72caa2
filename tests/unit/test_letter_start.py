"""``letter_start`` / ``phrase_start`` / ``word_start`` (deid_core/detect/rules/context.py) are speed spellings
of a plain alternation after a look-behind: they must match exactly where the plain form matches."""

from __future__ import annotations

import random
import re

import pytest

from deid_core.detect.rules.context import letter_start, phrase_alternatives, phrase_start, word_start

_PHRASES = frozenset({"read by", "reviewed by", "co-sign", "cosigned", "rn", "read", "scored by", "tech"})
_ALPHABET = "readbyviwsgnoctRSBY -_\t\né1:"


def _texts(n: int) -> list[str]:
    rng = random.Random(7)
    pieces = [*_PHRASES, *(p.upper() for p in _PHRASES), "x", "-", "_", "é", " ", "\t", "1"]
    out = []
    for _ in range(n):
        out.append("".join(rng.choice(pieces) if rng.random() < 0.6 else rng.choice(_ALPHABET) for _ in range(40)))
    return out


def _spans(pattern: str, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(pattern, text)]


@pytest.mark.parametrize("not_before", [r"\w\-", r"\w", "A-Za-z0-9_"])
def test_phrase_start_matches_where_the_plain_alternation_does(not_before: str) -> None:
    plain = rf"(?<![{not_before}])(?i:{phrase_alternatives(_PHRASES)})"
    fast = phrase_start(_PHRASES, not_before)
    for text in _texts(2000):
        assert _spans(fast, text) == _spans(plain, text), text


def test_letter_start_keeps_the_order_of_trial_within_a_letter() -> None:
    branches = ["bed", "bay", "bedspace", "cot"]
    fast = letter_start(branches, r"\w") + r"\b"
    plain = r"(?<!\w)(?i:bed|bay|bedspace|cot)\b"
    for text in ("bedspace 4", "in bed", "Bay 2", "xbed", "-cot", "COT"):
        assert _spans(fast, text) == _spans(plain, text)


def test_word_start_is_longest_first_after_no_ascii_word_character() -> None:
    fast = word_start(("pg", "pgr", "pager"))
    assert [m.group() for m in re.finditer(fast, "PGR 4471, pager, xpg, _pg, épg")] == ["PGR", "pager", "pg"]


def test_a_branch_must_open_with_a_letter() -> None:
    with pytest.raises(ValueError, match="leading letter"):
        letter_start(["#no"])
