"""A given name that is also an article or another function word (``An``), found where that word
cannot stand: ``An is a pharmacy technician``, ``Close friends An and Quinn``, ``at An's``,
``confirmed with An)``, ``- An: craving 3/10``, ``An (a barista)``.

The article precedes a noun or an adjective, never a verb, a conjunction, a possessive or punctuation,
so a capitalised ``An`` before one of those is a person (PATIENT: the note's patient or one of theirs;
span hygiene does not spread function words, so each mention is read on its own). Not before an
adjective in ``-ed`` (``An elevated troponin``): only the verbs and adverbs listed here, and verbs in
``-s`` that no noun's ending makes (``An lives here``; not ``An analysis``, ``An abscess``). The names are data
(``article_names`` in cues.yaml).
"""

from __future__ import annotations

import re

from deid_core.detect.base import Pattern
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_SCORE = 0.7
_NOT_AFTER_ARTICLE = (
    r"(?=['’]s\b|[ \t]{0,3}(?:[,;:)]|\((?!s\))|$)|[ \t]{1,3}(?:is|was|has|had|and|or|&|did|does|says|said|asked|called|"
    r"came|went|will|would|can|could|may|might|here|there|now|too|also|again|today|yesterday|tomorrow|"
    r"hear|signed|co-signed|"
    # a verb in -s ("An knows", "An lives"); not a noun in -is, -us or -ss ("An analysis", "An abscess")
    r"[a-z]+[^siu\W]s)\b(?!-))"
)


def article_name_patterns() -> list[Pattern]:
    names = sorted(load_lexicons().cues["article_names"])
    alternatives = "|".join(re.escape(n[0].upper() + n[1:]) for n in names)
    return [
        Pattern(
            "article_name",
            rf"(?m)(?<![\w'’\-])(?:{alternatives}){_NOT_AFTER_ARTICLE}",
            PhiType.PATIENT,
            score=_SCORE,
            flags=0,
            gate=tuple(names),
        ),
    ]
