"""Ages written right after a person's name: ``Diego (11)``, ``Sofi (6)``, ``Oksana Hryhorenko, 61;``.

Notes list household members, relatives and contacts as a name and an age in parentheses or set off by
commas, often far from the relation word that the ``age_of_relative`` rule needs. Once the detectors
have found the name (a person span of either type, by any detector: the type is the less certain part), the number straight after it is that person's
age: in parentheses, alone or before a comma or "yo"; or after a comma, before another comma, a
semicolon, a closing parenthesis or the end of a sentence. A number followed by anything else (a unit,
a slash, a decimal) is a measure, not an age.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from schemas import PhiType, Span

SOURCE = "lexicon"
SCORE = 0.7
MAX_AGE = 120
_AFTER_NAME = re.compile(
    r"[ \t]?\([ \t]*(?P<paren>\d{1,3})[ \t]*(?:[),;]|(?:yo|y/o|y)\b)"
    r"|,[ \t]*(?P<comma>\d{1,3})(?=[ \t]*(?:[,;)]|\.(?!\d)|$))",
    re.MULTILINE,
)


def ages_after_names(text: str, spans: Sequence[Span]) -> list[Span]:
    """AGE spans for the numbers right after person spans, except where a span already covers them."""
    out: list[Span] = []
    for span in spans:
        if span.type not in (PhiType.PATIENT, PhiType.DOCTOR):
            continue
        m = _AFTER_NAME.match(text, span.end)
        if m is None:
            continue
        group = "paren" if m.group("paren") is not None else "comma"
        start, end = m.span(group)
        if not 0 < int(m.group(group)) <= MAX_AGE:
            continue
        if any(s.start < end and start < s.end for s in (*spans, *out)):
            continue
        out.append(Span(start, end, PhiType.AGE, SCORE, frozenset({SOURCE}), "age after a name"))
    return out
