"""PROFESSION in a phrase about work that the lexicon's occupation list misses: ``Work: structural
engineer at``, ``becoming a sonographer``, ``works nights as a CNA at``, ``30 years as a shrimp boat
captain out of``, ``was a coal-breaker foreman and``.

The occupation is one to four lower-case words (or a staff initialism such as ``CNA``) that end where the
phrase does (a preposition, a conjunction or punctuation) in a job's head: the last word of a listed
occupation, a ``work_heads`` word (work_phrases.yaml) or, after a strong cue, an agent noun (``-er``,
``-or``, ``-ist``, ``-man``...) that is no ``not_work_heads`` word (``as a teenager``). After ``was a`` or
``is a`` alone the head must be listed and not an everyday role (``was a restrained driver``).
"""

from __future__ import annotations

import re
from functools import cache

from deid_core.detect.base import Pattern
from deid_core.detect.rules.context import letter_start
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_AGENT_ENDINGS = ("er", "or", "ist", "ian", "man", "men", "eer", "wright", "smith")
_AS = r"(?:[ \t]+(?:nights|days|evenings|weekends|part-time|full-time|now|currently|mostly))?[ \t]+as[ \t]+(?:an?[ \t]+)?"
_STRONG = letter_start(
    [
        *(w + _AS for w in ("works?", "worked", "working", "employed", "trained", "retired", "years", "career", "job")),
        *(w + r"[ \t]+an?[ \t]+" for w in ("becoming", "became", "become", "becomes")),
        *(w + r"[ \t]*:[ \t]*(?:an?[ \t]+)?" for w in ("work", "occupation", "job", "profession", "employment")),
    ],
    r"\w\-",
)
_WEAK = letter_start([r"was[ \t]+an?[ \t]+", r"is[ \t]+an?[ \t]+"], r"\w\-")
# "Occupation: retired stonemason": the state of the job is no part of it (as the lexicon tags it).
_STATE = r"(?:(?i:retired|former|formerly|part-time|full-time|self-employed|currently|now)[ \t]+)?"
_JOB = _STATE + r"(?P<job>(?:[a-z][a-z'’\-]*[ \t]+){0,3}?[a-z][a-z'’\-]*|[A-Z]{2,5})"
_END = (
    r"(?=[ \t]*(?:[,.;:()\"\n]|$)|[ \t]+(?:at|for|in|with|out|on|and|since|until|from|who|but|by|to|when|while"
    r"|before|after|then|near|downtown|there|here)\b)"
)


@cache
def _heads() -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    lex = load_lexicons()
    cues = lex.cues
    listed = frozenset(p.split()[-1] for p in lex.professions) | cues["work_heads"]
    initialisms = cues["work_heads"] | cues["credentials"]
    return listed, cues["not_work_heads"], cues["weak_work_stop"], initialisms, cues["function_words"]


def _job(text: str, m: re.Match[str], *, strong: bool) -> bool:
    listed, not_heads, weak_stop, initialisms, function = _heads()
    job = m.group("job")
    if job.isupper():
        return job.lower() in initialisms  # "as a CNA"
    words = job.split()
    if any(w in function for w in words):
        return False  # "as a result of", "is a bit"
    head = words[-1].split("-")[-1]
    singular = head[:-1] if head.endswith("s") else head
    if head in not_heads or singular in not_heads:
        return False
    if not strong:
        return (head in listed or singular in listed) and head not in weak_stop
    return head in listed or singular in listed or head.endswith(_AGENT_ENDINGS)


def work_phrase_patterns() -> list[Pattern]:
    return [
        Pattern(
            "profession_work_phrase",
            rf"{_STRONG}{_JOB}{_END}",
            PhiType.PROFESSION, score=0.7, group="job", flags=re.MULTILINE,
            validate=lambda text, m: _job(text, m, strong=True),
        ),
        Pattern(
            "profession_was_a",
            rf"{_WEAK}{_JOB}{_END}",
            PhiType.PROFESSION, score=0.65, group="job", flags=re.MULTILINE,
            validate=lambda text, m: _job(text, m, strong=False),
        ),
    ]
