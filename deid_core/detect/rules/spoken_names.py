"""Given names in speech: the speaker and the one spoken to in voicemail transcripts and text messages,
often in small letters (``"its ron again from downeast"``, ``thank u hope``, ``tell pete grandpa says
hi``, ``"hey del its priya on nights"``).

A spoken line names its speaker after ``its`` / ``this is`` and the one spoken to after a greeting or a
thanks, and a third person after ``tell``. The word there is a person when it is a listed given name and
none of the words said to anyone (``thank you honey``, ``hi doc``: ``speech_not_names``), a title, a
relation or a function word. A given name that is also a word in use (``hope``, ``will``, ``dawn``,
``art``) needs more: what may follow a name there and not the word (a punctuation mark or the line's end
after a greeting, ``from`` / ``again`` after ``its``, ``i`` or ``the`` after ``tell``), so ``this is an
emergency``, ``its in the car`` and ``ty drew am labs`` stay text. The cue words are data
(``speech_self``, ``speech_address``, ``speech_tell`` in cues.yaml). Typed PATIENT: speech does not say
whether the person is on the care team.
"""

from __future__ import annotations

import re
from functools import cache

from deid_core.detect.base import Pattern, Validator
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_SCORE = 0.7
# Small letters only: a capitalised name there the tagger finds, and a rule's type would override its.
_NAME = r"(?P<n>[a-z][a-z'’\-]{1,14})(?![\w'’\-])"
# What follows a spoken given name that is also a word, by cue (module docstring).
_AFTER_SELF = re.compile(r"[ \t]*(?:[,.!?;:\-–—\"”)]|$)|[ \t]+(?:from|again|calling|here|over|uh|um|at|with|in|on)\b", re.MULTILINE)
_AFTER_ADDRESS = re.compile(r"[ \t]*(?:[,.!?;:\"”)]|$)", re.MULTILINE)
_AFTER_TELL = re.compile(
    r"[ \t]*[,.!?]|[ \t]+(?:i|i'm|i’m|im|the|that|thank|thanks|thx|ty|grandpa|grandma|mom|dad|we|he|she|to|hi|hello|about|not|it|its)\b"
)
_NOT_NAMES = ("speech_not_names", "titles", "officer_titles", "relations", "function_words", "prose_words", "not_names")


@cache
def _never() -> frozenset[str]:
    cues = load_lexicons().cues
    return frozenset().union(*(cues[k] for k in _NOT_NAMES))


def _validator(after: re.Pattern[str]) -> Validator:
    def spoken_name(text: str, m: re.Match[str]) -> bool:
        word = m.group("n").lower().replace("’", "'")
        lex = load_lexicons()
        if word not in lex.first_names or word in _never():
            return False
        return not lex.in_use(word) or after.match(text, m.end("n")) is not None

    return spoken_name


def _cue(key: str) -> str:
    """The cue words as written in small letters, or capitalised opening a line or a sentence (``Hi``)."""
    words = sorted(load_lexicons().cues[key], key=len, reverse=True)
    return "|".join(f"[{w[0]}{w[0].upper()}]" + re.escape(w[1:]).replace(r"\ ", r"[ \t]+") for w in words)


def spoken_name_patterns() -> list[Pattern]:
    cues = load_lexicons().cues
    out = []
    for name, key, after in (
        ("spoken_self", "speech_self", _AFTER_SELF),
        ("spoken_address", "speech_address", _AFTER_ADDRESS),
        ("spoken_tell", "speech_tell", _AFTER_TELL),
    ):
        out.append(
            Pattern(
                name,
                rf"(?<![\w'’])(?:{_cue(key)})[ \t]+{_NAME}",
                PhiType.PATIENT,
                score=_SCORE,
                group="n",
                flags=0,
                validate=_validator(after),
                gate=tuple(sorted({w.split()[0].lower() for w in cues[key]})),
            )
        )
    return out
