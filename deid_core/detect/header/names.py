"""Names: a header name parsed into parts, the spellings a note may use for it (with nicknames), the
words that show a note may contain one, and name parts glued to a neighbouring word."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from types import MappingProxyType
from typing import NamedTuple

from deid_core.detect.header.variant import (
    SCORE,
    SOURCE,
    SPACES,
    TOKEN_SEPARATORS,
    WORD_BEFORE,
    Guard,
    Part,
    Variant,
    fold,
    is_weak,
    token_parts,
)
from deid_core.detect.header.words import (
    CLINICAL_ABBREVIATIONS,
    CREDENTIALS,
    NAME_SUFFIXES,
    NAME_TITLES,
    SURNAME_PARTICLES,
    nickname_cues,
)
from deid_core.lexicon import load_lexicons
from schemas import PatientHeader, PhiType, Span


@dataclass(frozen=True, slots=True)
class ParsedName:
    first: str | None
    middles: tuple[str, ...]
    last: str


_PARENTHESES = re.compile(r"\([^)]*\)")
_COMPOUND = re.compile(r"[-\s]+")


def parse_name(raw: str) -> ParsedName | None:
    """Split ``First Middle Last``, ``Last, First Middle`` or ``LAST^FIRST^MIDDLE`` into parts."""
    s = _PARENTHESES.sub(" ", raw)  # "Jane Roe (wife)"
    if "^" in s:
        parts = [p.strip() for p in s.split("^")]
        last, rest = parts[0], [p for p in parts[1:3] if p]
        s = f"{last}, {' '.join(rest)}" if rest else last
    chunks = [c.strip() for c in s.split(",")]
    # Trailing credentials: "Jane Roe, MD" / "Roe, Jane, M.D."
    while len(chunks) > 1 and all(_norm(t) in CREDENTIALS for t in chunks[-1].split()):
        chunks.pop()
    if len(chunks) > 1:
        last_tokens = _clean_tokens(chunks[0].split())
        given = _clean_tokens(" ".join(chunks[1:]).split())
        if not last_tokens:
            return None
        if not given:
            return ParsedName(None, (), " ".join(last_tokens))
        return ParsedName(given[0], tuple(given[1:]), " ".join(last_tokens))
    tokens = _clean_tokens(s.split())
    if not tokens:
        return None
    if len(tokens) == 1:
        return ParsedName(None, (), tokens[0])
    return ParsedName(tokens[0], tuple(tokens[1:-1]), tokens[-1])


def _norm(token: str) -> str:
    return token.strip(".").lower()


def _clean_tokens(tokens: list[str]) -> list[str]:
    out = [t for t in (t.strip(".,;-'’") for t in tokens) if t]
    while out and _norm(out[0]) in NAME_TITLES:
        out.pop(0)
    while len(out) > 1 and (_is_suffix(out[-1]) or _norm(out[-1]) in CREDENTIALS):
        out.pop()
    return out


def _is_suffix(token: str) -> bool:
    """``Jr``, ``Sr.``; a roman numeral only upper-case: ``III`` is a suffix, ``Iii`` may be a surname."""
    norm = _norm(token)
    return norm in NAME_SUFFIXES and (norm in ("jr", "sr") or token.strip(".").isupper())


def _given(name: ParsedName) -> str | None:
    """The first name when it is more than an initial."""
    return name.first if name.first and len(name.first.strip(".")) > 1 else None


# --- spellings ---------------------------------------------------------------------------------------

_SP = SPACES  # "John Smith", also across a line break
_DOTSP = re.compile(r"\.\s*|\s+")  # after an initial: "J. Smith", "J.Smith", "J Smith"
_COMMA = re.compile(r"\s*,?\s+")  # "Smith, John", "Smith John"
_DOT = re.compile(r"\.")
_INITIALS_BEFORE: Guard = re.compile(r"(?<![\w.])").match
_INITIALS_AFTER: Guard = re.compile(r"(?!\w)(?<!\.)|(?![\w.])").match  # "JS" then no word; "J.S." no dot


class _Initial(NamedTuple):
    letter: str


Item = str | _Initial | re.Pattern[str]
"""A name token, an initial (matched upper-case), or the separator before the next item."""


def _spaced(*items: str | _Initial) -> list[Item]:
    """Name parts with the separator each needs after it (a dot may follow an initial)."""
    out: list[Item] = []
    for item in items:
        if out:
            out.append(_DOTSP if isinstance(out[-1], _Initial) else _SP)
        out.append(item)
    return out


@lru_cache(maxsize=4096)
def name_variants(name: ParsedName, type_: PhiType, field_: str) -> tuple[Variant, ...]:
    """The header's own spellings of the name (``nickname_variants`` the others). Cached: a header often
    spells one name twice ("Ann Lee", "Lee, Ann"), and doctors recur."""
    out: list[Variant] = []
    explanation = f"header={field_}"

    def add(items: list[Item], full: bool = False, tail: re.Pattern[str] | None = None) -> None:
        """``full``: first name and surname together, matched in any case unless all are of two letters
        or fewer ("ED LI" is more likely two abbreviations). Tokens weigh their length and one, initials
        and separators two: the length of the canonical spelling."""
        tokens = [t for t in items if isinstance(t, str)]
        sensitive = all(map(is_weak, tokens)) and not (full and any(len(t) > 2 for t in tokens))
        parts: list[Part] = []
        for k in range(0, len(items), 2):  # items alternate: part, separator, part...
            item, gap = items[k], items[k + 1] if k + 1 < len(items) else None
            assert gap is None or isinstance(gap, re.Pattern)
            if isinstance(item, str):
                parts += token_parts(item, sensitive, gap)
            elif isinstance(item, _Initial):
                parts.append(Part((item.letter.upper(),), True, gap))
        weight = sum(len(t) + 1 for t in tokens) + 2 * (len(items) - len(tokens))
        out.append(Variant(tuple(parts), type_, explanation, weight, tail=tail))

    last, first = name.last, _given(name)
    mids = [m for m in name.middles if len(m.strip(".")) > 1]
    mid_initials = [_Initial(m[0]) for m in name.middles]
    if len(last) > 1:
        add([last])
    if first:
        add(_spaced(first, last), full=True)
        add([last, _COMMA, first], full=True)
        if name.middles:
            if len(mids) == len(name.middles):  # middle names given in full
                add(_spaced(first, *mids, last), full=True)
                add([last, _COMMA, *_spaced(first, *mids)], full=True)
            add(_spaced(first, *mid_initials, last), full=True)
            add([last, _COMMA, *_spaced(first, *mid_initials)], full=True, tail=_DOT)
        add([first])
    if name.first:
        initial = _Initial(name.first[0])
        add(_spaced(initial, last))
        if mid_initials:
            add(_spaced(initial, *mid_initials, last))
        add([last, _COMMA, initial], tail=_DOT)  # "Smith J", "Smith, J."
    # Parts of a compound surname alone: "Smith" of "Smith-Jones", "Cruz" of "De La Cruz".
    parts = _COMPOUND.split(last)
    if len(parts) > 1:
        for part in parts:
            if len(part) > 1 and part.lower() not in SURNAME_PARTICLES:
                add([part])
    # Bare initials, upper-case only: "JS", "J.S.", "JAS", "J.A.S."
    for word in _initials_words(name):
        if word not in CLINICAL_ABBREVIATIONS and word.isalpha():
            part = Part((word, "".join(f"{c}." for c in word)), True)
            out.append(Variant((part,), type_, explanation, len(word), _INITIALS_BEFORE, _INITIALS_AFTER))
    return tuple(out)


@lru_cache(maxsize=4096)
def nickname_variants(name: ParsedName, type_: PhiType, field_: str) -> tuple[Variant, ...]:
    """The name's spellings with a nickname for the first name: a source of their own, made only for a note
    that contains one of ``nickname_triggers(name)`` (a third of a header's name variants, seldom used)."""
    first = _given(name)
    if not first:
        return ()
    return tuple(_nickname_variants(first, name.last, type_, f"header={field_};variant=nickname"))


@lru_cache(maxsize=4096)
def nicknames(first: str) -> tuple[str, ...]:
    """The one-word nicknames of a first name and the names a nickname shortens (one hop), longest first."""
    found = load_lexicons().name_variants(first)
    return tuple(sorted((n for n in found if n.isalpha() and len(n) > 1), key=lambda n: (-len(n), n)))


@lru_cache(maxsize=4096)
def _nickname_groups(first: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``nicknames(first)`` split into those that are also words (or short) and the others, each longest
    first. Cached on the first name, which recurs across patients while the surname does not: the word
    test (a dictionary look-up with stemming) was most of the cost of a new patient's nicknames."""
    lex = load_lexicons()
    found = nicknames(first)
    words = tuple(n for n in found if is_weak(n) or lex.is_word(n))
    return words, tuple(n for n in found if n not in words)


def _nickname_variants(first: str, last: str, type_: PhiType, explanation: str) -> list[Variant]:
    """Each group of nicknames as the spellings of one token. One that is also a word ("Will", "Bill")
    counts only title-cased, and alone only after a title or a naming cue ("goes by Will"); any other is
    like a first name, title-cased when alone. They rank after the header's own spellings of equal weight."""
    words, others = _nickname_groups(first)
    nickname = partial(Variant, type=type_, explanation=explanation, derived=True)
    out: list[Variant] = []
    for group, is_word in ((words, True), (others, False)):
        if group:
            titled = tuple(n.capitalize() for n in group)  # title() of one alphabetic word
            nick = Part(titled if is_word else tuple(map(fold, group)), is_word)
            weight = len(group[0]) + len(last) + 4
            out.append(nickname((nick._replace(gap=_SP), *token_parts(last, False)), weight=weight))
            out.append(nickname((*token_parts(last, False, _COMMA), nick), weight=weight))
            before = _after_title_or_cue if is_word else WORD_BEFORE
            out.append(nickname((Part(titled, True),), weight=len(group[0]) + 1, before=before))
    return out


@lru_cache(maxsize=4096)
def name_triggers(name: ParsedName) -> tuple[Mapping[str, bool], tuple[str, ...]]:
    """What every spelling of ``name_variants(name)`` contains: a word (a first or last name, a part of a
    compound surname; folded; True) or the start of one (the "garcia" of "GarciaLopez": False), or else is:
    its bare initials as they are."""
    first = _given(name)
    words: dict[str, bool] = {}
    for token in [name.last, *_COMPOUND.split(name.last), *([first] if first else [])]:
        pieces = TOKEN_SEPARATORS.split(fold(token))
        if pieces[0]:  # a whole word unless a hyphen may glue the next piece to it
            words[pieces[0]] = words.get(pieces[0], True) and (len(pieces) == 1 or pieces[1] != "-")
    exact = tuple(w for word in _initials_words(name) for w in (word, "".join(f"{c}." for c in word)))
    return MappingProxyType(words), exact


def nickname_triggers(name: ParsedName) -> Mapping[str, bool]:
    """What every spelling of ``nickname_variants(name)`` contains: a nickname as a whole word (folded, as
    the lexicon spells it and title-cased: the case-sensitive ones are matched title-cased). Empty when the
    name has none."""
    first = _given(name)
    found = nicknames(first) if first else ()
    words = dict.fromkeys(map(fold, found), True)
    # Title case folds back to the same word but for a few non-ASCII letters ("ß" -> "Ss").
    words.update(dict.fromkeys((fold(n.capitalize()) for n in found if not n.isascii()), True))
    return MappingProxyType(words)


def _initials_words(name: ParsedName) -> list[str]:
    """Bare initials, upper-case: "JS" and, with middle names, "JAS"."""
    if not name.first or len(name.last) <= 1:
        return []
    initial = name.first[0]
    letters = [initial, *(m[0] for m in name.middles), name.last[0]]
    choices = ([initial, name.last[0]], letters) if name.middles else ([initial, name.last[0]],)
    return ["".join(c.upper() for c in ls) for ls in choices]


_CUE_WINDOW = 24


def _after_title_or_cue(text: str, pos: int) -> bool:
    """A word start after spaces, and before them a title ("Mr.", "Dr") or a naming cue ("goes by")."""
    start = max(0, pos - _CUE_WINDOW)
    before = text[start:pos]
    head = fold(before.rstrip())
    if len(head) == len(before) or not WORD_BEFORE(text, pos):
        return False
    for cue in nickname_cues():
        for form in (cue, cue + "."):
            if head.endswith(form) and WORD_BEFORE(text, start + len(head) - len(form)):
                return True
    return False


# --- name parts glued to a neighbouring word ---------------------------------------------------------

GLUED_NAME_MIN_LEN = 5
_TOKEN_GLUE = frozenset("@._-+/\\:=#")
_NAME_PART = re.compile(r"[^\W\d_]+")


def glued_name_parts(header: PatientHeader) -> dict[str, PhiType]:
    """Folded name parts of at least ``GLUED_NAME_MIN_LEN`` letters, for :func:`glued_name_spans`."""
    parts: dict[str, PhiType] = {}
    for type_, names in ((PhiType.PATIENT, header.names), (PhiType.PATIENT, header.next_of_kin),
                         (PhiType.DOCTOR, header.doctors)):  # fmt: skip
        for raw in names:
            for part in _NAME_PART.findall(raw):
                if len(part) >= GLUED_NAME_MIN_LEN:
                    parts.setdefault(fold(part), type_)
    return parts


def glued_name_spans(
    text: str, folded: str, parts: Sequence[tuple[str, PhiType]], found: Sequence[Span]
) -> list[Span]:
    """Header name parts glued to a neighbouring word by a typo ("Quixotebeardis stable").

    The word-bounded variants miss these, and the name would be published. A name part of at least
    ``GLUED_NAME_MIN_LEN`` letters that starts or ends a longer word marks the whole word (shorter parts
    like "Lee" or "Ng" would hit ordinary words). Over-marking a word such as "Bakery" for a patient
    named Baker is the accepted price.
    """
    covered = [(s.start, s.end) for s in found]
    out: list[Span] = []
    for part, type_ in parts:
        at = folded.find(part)
        while at >= 0:
            end = at + len(part)
            start_word, end_word = at, end
            while start_word > 0 and text[start_word - 1].isalpha():
                start_word -= 1
            while end_word < len(text) and text[end_word].isalpha():
                end_word += 1
            glued = (start_word == at) != (end_word == end)  # a longer word that the part starts or ends
            # Not inside an e-mail address, user name or domain ("pwhite@...", "jhammond6"): the contact
            # and ID detectors own those, and a name span would split them.
            before = text[start_word - 1] if start_word else " "
            after = text[end_word] if end_word < len(text) else " "
            embedded = before in _TOKEN_GLUE or after in _TOKEN_GLUE or before.isdigit() or after.isdigit()
            if glued and not embedded and not any(a < end_word and start_word < b for a, b in covered):
                out.append(Span(start_word, end_word, type_, SCORE, frozenset({SOURCE}), "header=glued-name"))
                covered.append((start_word, end_word))
            at = folded.find(part, end)
    return out
