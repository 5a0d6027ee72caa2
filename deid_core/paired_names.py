"""A name paired with a person: the other half of ``A + B``, ``A & B`` or ``A / B`` where A is a person.

Logs pair the people who did one thing (``Ro + Jojo handled 3 admits``, ``two-RN check jn/cm``,
``dict Marco / mt``, ``SMc / KvW signed``). Where one half is a person some detector found, the other
half is a person too when it has a name's shape:

* a capitalised word of two to twelve letters (a hyphen joining two such parts allowed) that is a
  listed given name or no dictionary word, and no title, role, relation, language, profession,
  function word, clinical abbreviation or other never-name (``Dr. Ruiz / Cardiology`` pairs no one);
* initials: two to four capitals that are no unit, route, credential or clinical abbreviation
  (``Okafor/RN``, ``Lena/ICU`` pair no one), or two to four small letters that are no word either.

Invariant: a span is added only for a half that no span covers, right next to the person across one
``+``, ``&`` or ``/`` and blanks on the same line; it takes the person's type. Found spans are never
changed, and nothing spreads from an added half (one pass, so a chain ``A/B/C`` stops at ``B``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from deid_core.covered import covered_characters
from deid_core.detect.rules.staff_initials import capital_initials, credential_words, not_initials
from deid_core.lexicon import load_lexicons
from schemas import PhiType, Span

SOURCE = "lexicon"
_TAGGER = "tagger"
SCORE = 0.7
_PERSON = frozenset({PhiType.PATIENT, PhiType.DOCTOR})
_NOT_NAMES = ("titles", "officer_titles", "staff", "extra_roles", "languages", "relations", "function_words", "not_names")
_HALF = r"[A-Za-z][A-Za-z'\u2019\-]{1,24}"
_AFTER = re.compile(rf"[ \t]*[+&/][ \t]*(?P<w>{_HALF})(?![\w/+&])")
_BEFORE = re.compile(rf"(?<![\w/+&])(?P<w>{_HALF})[ \t]*[+&/][ \t]*$")
_NAME = re.compile(r"[A-Z][a-z]{1,11}(?:-[A-Z][a-z]{1,11})?")
_INITIALS = re.compile(r"[A-Z]{2,4}|[a-z]{2,4}")
_LOOK_BACK = 28
# What follows a half that ends the pair: the line's end, punctuation, a column gap, a small word.
_END = re.compile(r"[ \t]*(?:$|[\n(),;.:]|[ \t]{2,}|[a-z])", re.MULTILINE)


def names_in_pairs(text: str, spans: Sequence[Span]) -> list[Span]:
    """Spans for the unfound halves of pairs whose other half is a person (module docstring)."""
    persons = [s for s in spans if s.type in _PERSON and _trusted(text[s.start : s.end])]
    if not persons or not any(c in text for c in "+&/"):
        return []
    covered = covered_characters(text, spans)
    out: dict[tuple[int, int], Span] = {}
    for person in persons:
        # Initials pair with initials a rule or list found; the tagger alone misreads tests (``GC/CT``).
        initials = _INITIALS.fullmatch(text, person.start, person.end) is not None and person.sources != {_TAGGER}
        after = _AFTER.match(text, person.end)
        if after is not None and _END.match(text, after.end()) is None:
            after = None  # "Lena + dtr Aiyana", "K / rm 102": the word names the next thing
        before = _BEFORE.search(text, max(0, person.start - _LOOK_BACK), person.start)
        for m in (after, before):
            if m is None or any(covered[m.start("w") : m.end("w")]) or not _name_shaped(m.group("w"), initials):
                continue
            out.setdefault((m.start("w"), m.end("w")), Span(m.start("w"), m.end("w"), person.type, SCORE, frozenset({SOURCE}), "paired_names"))
    return sorted(out.values(), key=lambda s: (s.start, s.end))


def _trusted(value: str) -> bool:
    """A person half worth pairing: two letters or more, and not one word in capitals of four or more
    (``DATE/TIME``, ``REGISTRO``: headings the tagger may misread)."""
    return len(value) >= 2 and not (value.isupper() and len(value) >= 4 and " " not in value)


def _name_shaped(word: str, beside_initials: bool) -> bool:
    """A given name the lists know (three letters or more: ``Ag/Ab`` is a test); or initials beside
    initials (``PE / DA``, ``OF/lz``), or small letters no dictionary knows beside a name (``Marco / mt``)."""
    lex = load_lexicons()
    low = word.lower()
    cues = lex.cues
    if any(low in cues[key] for key in _NOT_NAMES) or low in lex.professions or low in cues["clinical_abbreviations"]:
        return False
    if _NAME.fullmatch(word):
        return len(word) >= 3 and low in lex.first_names
    if _INITIALS.fullmatch(word) is None:
        return False
    if word.isupper():
        return beside_initials and capital_initials(word) and word not in lex.us_states
    return not not_initials(word) and low not in credential_words() and not lex.in_use(low)
