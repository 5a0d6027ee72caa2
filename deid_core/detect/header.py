"""The header matcher: finds the values of a note's ``PatientHeader`` in the note text.

Header values are near-certain PHI, so every spelling of them the text may use is searched for: name
variants (last-first, initials, first or last name alone, hyphen parts), identifiers and phones with or
without separators, the birth date in any common format, address parts with street abbreviations.

Each variant is a small pattern (a tuple of nodes: literals, repeated character classes, alternations,
lookarounds) with the semantics of the regular expression it stands for, interpreted by ``_run``. Nothing
is compiled per header: Python's regex compiler costs ~20 ms for the variants of one header, and a stream
where every note has a new patient pays that on every note. Instead each variant names anchors (literals
or digit runs every match starts at, or near) and needles (literals every match contains); a note is
scanned with ``str.find`` for them and the interpreter runs only where an anchor occurs. Name variants,
the costliest to build, are built only for the names whose tokens occur in the note.

The result is the one ``re.finditer`` over the alternation of all variants (longest canonical spelling
first) would give: at the leftmost position where some variant matches, the first variant in that order
wins, and the scan resumes after its match.

Precision guards, the reasons for the less obvious rules:

* Single name tokens that are also English or clinical words (``Will``, ``May``, ``White``, ``Stone``,
  ``Heart``) and tokens of two letters (``Ed``, ``Al``: ``ED``) match only title-cased; so does a
  multi-token variant made only of such tokens. Single letters never match alone.
* Bare initials (``JS``, ``J.S.``) match only upper-case, and not when they spell a clinical
  abbreviation (``MS``, ``CT``, ``PT``, ...).
* Two-letter state codes match only upper-case after the header's city or after a comma when a ZIP
  follows (``Boston, MA``, ``, MA 02115``), not after any comma: ``CAD, MI`` is not Michigan.
* Numbers (IDs, phones, dates, ZIPs) must not continue into a longer number, including across a
  single ``-``, ``.`` or ``/`` separator; identifiers shorter than 4 characters are not searched.
* Dates are searched only as full dates (with the year): a day and month alone are too common.

Explanations name the header field (``header=names``, ``header=address.city``), never a value.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

from schemas import EnrichedNote, PatientHeader, PhiType, Span

SOURCE = "header"
SCORE = 0.99

# Name tokens that are also common English or clinical words: matched only when title-cased.
COMMON_WORD_NAMES: frozenset[str] = frozenset(
    """
    will may june april august march hope faith grace joy mercy patience bill mark grant rose lily ivy
    iris dawn summer autumn winter sky ruby pearl amber crystal jewel penny sandy rusty chase chip cliff
    dale dean drew frank gene art guy jack jean max pat ray rich rob rod sue tad wade ward miles page
    reed lane hunter king earl major prince sterling bud buck don van kay gay hale herb misty honey
    candy sunny stormy coral cherry heather holly daisy violet olive ginger fern sage basil carter
    baker cooper tanner archer walker cash price noble gale sonny happy precious unique destiny
    harmony trinity
    white black brown green gray grey young long short small little bird stone hill wood woods hall
    bell cook rice park parks hart head love case cross field fields ford fox good hand house lamb
    light marsh moon pool power sharp snow stark street strong swift west east north south wise bass
    bone burns bush care chance close coffee day days dove duck early english fair fish frost gold
    golden hay high holiday hunt hurt keen lake land law lord new oakes pain peace person pierce pike
    plant pope post pound rain river rivers rock root rush salt sands savage sea slaughter sparks
    spring springs stern steel storm summers sweet toll tower trip tuck vail wall walls waters ware way
    weeks well wells wing wolf worth wren best better blood blue broad brook brooks burn chambers
    church cotton crane crow doctor drake duke eagle fell finch fleet free gill glass guest hammer
    hardy hawk heart hood horn judge kidd knight lean lucky mayo mann marks mason meek merry mild
    nurse oak orange paris parish peel plain proud quick read reading ring rough round silver sole
    spear stamp still strange stroke sugar tall thorn tree true vine weaver webb wheeler wild
    chest lung back neck hip knee foot arm leg mass cast drain stent fall falls dose pill patch shot
    flu cold fever rash scan test tube line lines port bed room floor unit patient chart note plan
    stable clear normal fine soft tender regular dull severe acute minor late daily morning evening
    night said noted seen can must shall might trust bay bath mobile union concord independence
    job cal cath sat val sol les nan gil hal
    monday tuesday wednesday thursday friday saturday sunday christmas easter
    """.split()
)

# Upper-case abbreviations that bare initials must not be mistaken for.
CLINICAL_ABBREVIATIONS: frozenset[str] = frozenset(
    """
    MS PT CT MR ER OR BP HR RR DM CP MI PE GI GU IV IM PO PR OT ST SP TB UA US VS HB EF ED ID DC AM PM
    NO IN ON AT TO BE HE ME WE IS IT AN AS BY DO GO IF OF SO UP RN MD DR NP PA CA CO AF RA LA HA OK
    LE UE AP LV RV EP NG OG JP AV VT VF SA SL SQ SC QD HS NS LR FH SH CC RX DX TX HX SX FX BM UO KG LB
    CM MM ML MG NA CL BS GFR WBC RBC HGB HCT PLT BUN INR PTT CHF CAD HTN ABG ICU CBC BMP CMP EKG ECG MRI
    BID TID QID PRN NPO SOB DOE HPI ROS PMH PSH NAD AKI UTI URI DVT CVA TIA RLE LLE RUE LUE CXR KUB ENT
    GERD COPD OSA CKD ESRD ARDS AAA ASA TPN PICC EGD ERCP CABG PCI STEMI NSTEMI EMS ETOH
    """.split()
)

SURNAME_PARTICLES: frozenset[str] = frozenset(
    {
        "de",
        "del",
        "della",
        "der",
        "den",
        "di",
        "da",
        "dos",
        "du",
        "la",
        "le",
        "van",
        "von",
        "st",
        "y",
        "bin",
        "ibn",
        "al",
    }
)
NAME_SUFFIXES: frozenset[str] = frozenset({"jr", "sr", "ii", "iii", "iv", "v"})
NAME_TITLES: frozenset[str] = frozenset({"mr", "mrs", "ms", "miss", "mx", "dr", "prof", "rev", "sir"})
CREDENTIALS: frozenset[str] = frozenset(
    {
        "md",
        "m.d",
        "do",
        "d.o",
        "rn",
        "np",
        "pa",
        "pa-c",
        "phd",
        "dnp",
        "facp",
        "facc",
        "facs",
        "mph",
        "msn",
        "crnp",
    }
)

MONTHS = ("january february march april may june july august september october november december").split()

US_STATES: dict[str, str] = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia",
    "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas",
    "KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts",
    "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri", "MT": "Montana",
    "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico",
    "NY": "New York", "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma",
    "OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina",
    "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont",
    "VA": "Virginia", "WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming",
    "DC": "District of Columbia", "PR": "Puerto Rico", "GU": "Guam", "VI": "Virgin Islands",
    "AS": "American Samoa", "MP": "Northern Mariana Islands",
}  # fmt: skip
_STATE_CODES = {v.lower(): k for k, v in US_STATES.items()}

# Street words that are written several ways; each group is matched as any of its spellings.
_STREET_WORD_GROUPS: tuple[tuple[str, ...], ...] = (
    ("street", "st", "str"), ("avenue", "ave", "av"), ("road", "rd"), ("boulevard", "blvd"),
    ("drive", "dr"), ("lane", "ln"), ("court", "ct"), ("place", "pl"), ("terrace", "ter", "terr"),
    ("parkway", "pkwy"), ("highway", "hwy"), ("square", "sq"), ("circle", "cir"), ("way", "wy"),
    ("trail", "trl"), ("route", "rte"), ("mount", "mt"), ("saint", "st"), ("fort", "ft"),
    ("north", "n"), ("south", "s"), ("east", "e"), ("west", "w"), ("northeast", "ne"),
    ("northwest", "nw"), ("southeast", "se"), ("southwest", "sw"),
    ("apartment", "apt"), ("suite", "ste"), ("unit",), ("building", "bldg"), ("floor", "fl"),
)  # fmt: skip
_STREET_WORDS: dict[str, tuple[str, ...]] = {}
for _group in _STREET_WORD_GROUPS:
    for _w in _group:
        _STREET_WORDS[_w] = tuple(sorted(set(_STREET_WORDS.get(_w, ())) | set(_group), key=len, reverse=True))

_US_ALIASES = ("united states of america", "united states", "usa", "u.s.a.", "u.s.a", "u.s.")


# --- the pattern interpreter ---------------------------------------------------------------------------
#
# Nodes are plain tuples, so that equal variants compare (and deduplicate) equal:
#   ("l", s, icase)          literal; ``s`` is folded (see ``_fold``) when ``icase``
#   ("r", pred, lo, hi)      greedy repetition of one character class, ``hi`` None for unbounded
#   ("a", (seq, ...))        alternation, first branch first (a greedy ``?`` is ``(seq, ())``)
#   ("c", check)             zero-width check ``check(text, pos) -> bool`` (simple lookarounds)
#   ("b", seq, width, neg)   lookbehind of a fixed-width sequence (``neg``: negative)
#   ("f", seq, neg)          lookahead
Node = tuple[Any, ...]
Seq = tuple[Node, ...]

# Characters that Python's case-insensitive matching treats as equal beyond their lower case
# (``re._casefix``): each group folds to its first member.
_CASE_GROUPS = (
    (105, 305), (115, 383), (181, 956), (837, 953, 8126), (912, 8147), (944, 8163), (946, 976),
    (949, 1013), (952, 977), (954, 1008), (960, 982), (961, 1009), (962, 963), (966, 981), (1074, 7296),
    (1076, 7297), (1086, 7298), (1089, 7299), (1090, 7300, 7301), (1098, 7302), (1123, 7303),
    (7304, 42571), (7777, 7835), (64261, 64262),
)  # fmt: skip
_CASE_CANON: dict[str, str] = {chr(c): chr(g[0]) for g in _CASE_GROUPS for c in g[1:]}


@lru_cache(maxsize=4096)
def _fold_char(c: str) -> str:
    low = c.lower()
    if len(low) != 1:  # "İ".lower() is two characters; the regex engine's simple lower case is "i"
        low = "i" if c == "\u0130" else c
    return _CASE_CANON.get(low, low)


def _fold(s: str) -> str:
    """Case folding as the regex engine compares under IGNORECASE, one character for one character."""
    if s.isascii():
        return s.lower()
    return "".join(map(_fold_char, s))


def _is_word(c: str) -> bool:
    return c.isalnum() or c == "_"


def _is_space(c: str) -> bool:
    return c.isspace()


def _is_digit(c: str) -> bool:
    return c.isdecimal()


def _is_hyphen_space(c: str) -> bool:  # [-\s]
    return c == "-" or c.isspace()


def _is_apostrophe(c: str) -> bool:  # ['’]
    return c in "'’"


def _is_dot(c: str) -> bool:
    return c == "."


def _is_comma(c: str) -> bool:
    return c == ","


def _is_space_comma(c: str) -> bool:  # [\s,]
    return c == "," or c.isspace()


def _is_id_sep(c: str) -> bool:  # [\s\-./]
    return c in "-./" or c.isspace()


def _is_phone_sep(c: str) -> bool:  # [\s\-.]
    return c in "-." or c.isspace()


def _is_phone_sep_paren(c: str) -> bool:  # [\s\-.()]
    return c in "-.()" or c.isspace()


def _is_date_sep(c: str) -> bool:  # [/\-.]
    return c in "/-."


def _is_date_space(c: str) -> bool:  # [\s\-/]
    return c in "-/" or c.isspace()


def _is_plus(c: str) -> bool:
    return c == "+"


def _is_lparen(c: str) -> bool:
    return c == "("


def _is_rparen(c: str) -> bool:
    return c == ")"


def _is_zero(c: str) -> bool:
    return c == "0"


# [A-Za-z0-9] under IGNORECASE also takes the characters that fold into it.
_ALNUM_ASCII_IC = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\u017f\u212a\u0131\u0130"
)


def _word_before_ok(text: str, pos: int) -> bool:  # (?<!\w)
    return pos == 0 or not _is_word(text[pos - 1])


def _word_after_ok(text: str, pos: int) -> bool:  # (?!\w)
    return pos >= len(text) or not _is_word(text[pos])


def _num_before_ok(text: str, pos: int) -> bool:  # (?<!\d)(?<!\d[-./])
    if pos >= 1 and text[pos - 1].isdecimal():
        return False
    return not (pos >= 2 and text[pos - 1] in "-./" and text[pos - 2].isdecimal())


def _num_after_ok(text: str, pos: int) -> bool:  # (?!\d)(?![-./]\d)
    n = len(text)
    if pos < n and text[pos].isdecimal():
        return False
    return not (pos + 1 < n and text[pos] in "-./" and text[pos + 1].isdecimal())


def _no_digit_before(text: str, pos: int) -> bool:  # (?<!\d)
    return pos == 0 or not text[pos - 1].isdecimal()


def _no_digit_after(text: str, pos: int) -> bool:  # (?!\d)
    return pos >= len(text) or not text[pos].isdecimal()


def _no_digit_plus_before(text: str, pos: int) -> bool:  # (?<![\d+])
    return pos == 0 or not (text[pos - 1].isdecimal() or text[pos - 1] == "+")


def _local_phone_before_ok(text: str, pos: int) -> bool:  # (?<!\d)(?<!\d[\s\-.])(?<!\d\))(?<!\d\)\s)
    if pos >= 1 and text[pos - 1].isdecimal():
        return False
    if pos >= 2 and text[pos - 2].isdecimal() and (_is_phone_sep(text[pos - 1]) or text[pos - 1] == ")"):
        return False
    return not (pos >= 3 and text[pos - 3].isdecimal() and text[pos - 2] == ")" and text[pos - 1].isspace())


def _id_after_letter_ok(text: str, pos: int) -> bool:  # (?![A-Za-z0-9])
    return pos >= len(text) or text[pos] not in _ALNUM_ASCII_IC


def _email_before_ok(text: str, pos: int) -> bool:  # (?<![\w.+\-])
    return pos == 0 or not (_is_word(text[pos - 1]) or text[pos - 1] in ".+-")


def _email_after_ok(text: str, pos: int) -> bool:  # (?![\w\-])(?!\.\w)
    n = len(text)
    if pos < n and (_is_word(text[pos]) or text[pos] == "-"):
        return False
    return not (pos + 1 < n and text[pos] == "." and _is_word(text[pos + 1]))


def _initials_before_ok(text: str, pos: int) -> bool:  # (?<![\w.])
    return pos == 0 or not (_is_word(text[pos - 1]) or text[pos - 1] == ".")


def _initials_dotted_after_ok(text: str, pos: int) -> bool:  # (?![\w.])
    return pos >= len(text) or not (_is_word(text[pos]) or text[pos] == ".")


_WB: Node = ("c", _word_before_ok)
_WA: Node = ("c", _word_after_ok)
_NB: Node = ("c", _num_before_ok)
_NA: Node = ("c", _num_after_ok)
_SPACES: Node = ("r", _is_space, 1, None)  # \s+
_OPT_SPACES: Node = ("r", _is_space, 0, None)  # \s*


def _run(seq: Seq, i: int, text: str, folded: str, pos: int, cont: tuple[Any, ...] | None) -> int | None:
    """The end of the first match of ``seq[i:]`` and then ``cont`` at ``pos``, as a backtracking regex
    engine would find it, or None. ``cont`` is the rest of an enclosing sequence: ``(seq, i, cont)``."""
    n = len(seq)
    while i < n:
        node = seq[i]
        kind = node[0]
        if kind == "l":
            s = node[1]
            end = pos + len(s)
            if node[2]:
                if folded[pos:end] != s:
                    return None
            elif not text.startswith(s, pos):
                return None
            pos = end
        elif kind == "c":
            if not node[1](text, pos):
                return None
        elif kind == "r":
            _, pred, lo, hi = node
            limit = len(text) if hi is None else min(len(text), pos + hi)
            j = pos
            while j < limit and pred(text[j]):
                j += 1
            if j - pos < lo:
                return None
            if i + 1 == n and cont is None:
                return j
            for end in range(j, pos + lo - 1, -1):
                r = _run(seq, i + 1, text, folded, end, cont)
                if r is not None:
                    return r
            return None
        elif kind == "a":
            rest = (seq, i + 1, cont)
            for branch in node[1]:
                r = _run(branch, 0, text, folded, pos, rest)
                if r is not None:
                    return r
            return None
        elif kind == "b":
            _, sub, width, neg = node
            start = pos - width
            ok = start >= 0 and _run(sub, 0, text, folded, start, None) == pos
            if ok == neg:
                return None
        else:  # "f"
            _, sub, neg = node
            ok = _run(sub, 0, text, folded, pos, None) is not None
            if ok == neg:
                return None
        i += 1
    if cont is None:
        return pos
    return _run(cont[0], cont[1], text, folded, pos, cont[2])


def _width(seq: Seq) -> int | None:
    """The fixed width of a sequence (lookbehinds need one), None if it varies."""
    w = 0
    for node in seq:
        if node[0] == "l":
            w += len(node[1])
        elif node[0] == "r":
            if node[2] != node[3]:
                return None
            w += node[2]
        elif node[0] == "a":
            widths = {_width(b) for b in node[1]}
            if len(widths) != 1 or None in widths:
                return None
            w += widths.pop()  # type: ignore[operator]
    return w


def _lit(s: str, icase: bool = True) -> Node:
    return ("l", _fold(s) if icase else s, icase)


def _opt(*nodes: Node) -> Node:
    return ("a", (tuple(nodes), ()))


# --- per-note views of the text ----------------------------------------------------------------------

_NON_DIGITS = re.compile(r"\D+")
_ID_SEPARATORS = re.compile(r"[\s\-./]+")
_DIGIT_RUNS = re.compile(r"\d+")


class _NoteView:
    """The forms of one note's text that anchors and needles are looked up in, each made on first use."""

    __slots__ = ("_digit_runs", "_digits", "_id_stripped", "folded", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.folded = _fold(text)
        self._digits: str | None = None
        self._id_stripped: str | None = None
        self._digit_runs: dict[str, list[int]] | None = None

    @property
    def digits(self) -> str:
        if self._digits is None:
            self._digits = _NON_DIGITS.sub("", self.text)
        return self._digits

    @property
    def id_stripped(self) -> str:
        if self._id_stripped is None:
            self._id_stripped = _ID_SEPARATORS.sub("", self.folded)
        return self._id_stripped

    @property
    def digit_runs(self) -> dict[str, list[int]]:
        if self._digit_runs is None:
            runs: dict[str, list[int]] = {}
            for m in _DIGIT_RUNS.finditer(self.text):
                runs.setdefault(m.group(), []).append(m.start())
            self._digit_runs = runs
        return self._digit_runs

    def has(self, needle: tuple[str, str]) -> bool:
        kind, s = needle
        if kind == "f":
            return s in self.folded
        if kind == "t":
            return s in self.text
        if kind == "d":
            return s in self.digits
        return s in self.id_stripped  # "s"

    def starts(self, anchor: Anchor) -> Iterator[int]:
        """Positions where a match of a variant with this anchor may start (a superset)."""
        kind, value, lead = anchor
        if kind == "r":
            runs = self.digit_runs
            for run in value:
                yield from runs.get(run, ())
            return
        if kind == "i":  # an identifier: its first character, then its second one at most one character on
            first, second = value
            folded = self.folded
            q = folded.find(first)
            while q >= 0:
                if not second or folded[q + 1 : q + 2] == second or folded[q + 2 : q + 3] == second:
                    yield q
                q = folded.find(first, q + 1)
            return
        hay = self.folded if kind == "f" else self.text
        q = hay.find(value)
        while q >= 0:
            if lead:
                yield from range(max(0, q - lead), q + 1)
            else:
                yield q
            q = hay.find(value, q + 1)


Anchor = tuple[str, Any, int]
"""``(kind, value, lead)``: kind "f" (folded literal), "t" (exact literal), "r" (value: digit runs a match
starts with), "i" (value: an identifier's first two folded characters); a match starts at most ``lead``
characters before the literal."""


@dataclass(frozen=True, slots=True)
class _Variant:
    seq: Seq
    type: PhiType
    field: str
    weight: int
    """Sort key: longer canonical spellings first, so the longest variant wins at a given start."""
    first: str
    """Every character a match can start with (any case)."""
    anchors: tuple[Anchor, ...] = ()
    """Where matches start; empty: derived from the first node, or every ``first`` character."""
    needles: tuple[tuple[str, str], ...] = ()
    """Extra ``(kind, text)`` that every match contains (kinds as in ``_NoteView.has``)."""


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A variant ready to scan for: its needles and anchors resolved."""

    variant: _Variant
    first: frozenset[str]
    anchors: tuple[Anchor, ...]
    needles: tuple[tuple[str, str], ...]


def _prepare(v: _Variant) -> _Prepared:
    needles = list(v.needles)
    for node in v.seq:
        if node[0] == "l" and len(node[1]) > 1:
            needles.append(("f" if node[2] else "t", node[1]))
    anchors = v.anchors
    if not anchors:
        head = next((n for n in v.seq if n[0] not in "cbf"), None)
        if head is not None and head[0] == "l":
            anchors = ((("f" if head[2] else "t"), head[1], 0),)
        else:
            anchors = tuple(("f", c, 0) for c in sorted({_fold(c) for c in v.first}))
    return _Prepared(v, frozenset(_fold(c) for c in v.first), anchors, tuple(needles))


@dataclass(slots=True)
class _Source:
    """The variants of one header value, built on first need."""

    build: Callable[[], tuple[_Prepared, ...]]
    needles: tuple[tuple[str, str], ...] = ()
    """Built only when one of these occurs in the note (all notes when empty)."""
    variants: tuple[_Prepared, ...] | None = field(default=None)

    def prepared(self) -> tuple[_Prepared, ...]:
        if self.variants is None:  # a benign race: two threads build equal tuples
            self.variants = self.build()
        return self.variants


class HeaderMatcher:
    """The variants of one header. Safe to share between threads (its lazy parts are idempotent)."""

    __slots__ = ("_glued_parts", "_sources")

    def __init__(self, sources: Iterable[_Source], glued_parts: Iterable[tuple[str, PhiType]] = ()) -> None:
        self._sources = tuple(sources)
        self._glued_parts = tuple(glued_parts)

    def __len__(self) -> int:
        """The number of distinct variants searched for."""
        return len(self._ordered([s.prepared() for s in self._sources]))

    @staticmethod
    def _ordered(groups: Iterable[tuple[_Prepared, ...]]) -> list[_Prepared]:
        unique: dict[Seq, _Prepared] = {}
        for group in groups:
            for p in group:
                unique.setdefault(p.variant.seq, p)  # the first field to produce a spelling owns it
        return sorted(unique.values(), key=lambda p: -p.variant.weight)

    def find(self, text: str) -> list[Span]:
        if not text or not (self._sources or self._glued_parts):
            return []
        view = _NoteView(text)
        active = [s.prepared() for s in self._sources if not s.needles or any(map(view.has, s.needles))]
        ordered = self._ordered(active)
        candidates: set[tuple[int, int]] = set()
        for rank, p in enumerate(ordered):
            if all(map(view.has, p.needles)):
                for anchor in p.anchors:
                    candidates.update((start, rank) for start in view.starts(anchor))
        spans: list[Span] = []
        folded = view.folded
        pos = 0
        for start, rank in sorted(candidates):
            if start < pos:  # inside the previous match, or a lower-ranked variant where one matched
                continue
            p = ordered[rank]
            key = folded[start]
            if key not in p.first or (key.isalpha() and not _word_before_ok(text, start)):
                continue
            end = _run(p.variant.seq, 0, text, folded, start, None)
            if end is None or end == start:
                continue
            v = p.variant
            spans.append(Span(start, end, v.type, SCORE, frozenset({SOURCE}), f"header={v.field}"))
            pos = end
        return spans + _glued_name_spans(text, folded, self._glued_parts, spans)


class HeaderDetector:
    """Detector of header values in the note text, with a bounded per-instance cache of matchers."""

    name: str = SOURCE

    def __init__(self, cache_size: int = 1024) -> None:
        if cache_size < 0:
            raise ValueError("cache_size must be >= 0")
        self._cache_size = cache_size
        self._cache: OrderedDict[str, HeaderMatcher] = OrderedDict()
        self._lock = threading.Lock()

    def detect(self, note: EnrichedNote) -> list[Span]:
        if note.patient is None or not note.text:
            return []
        return self.matcher_for(note.patient).find(note.text)

    def matcher_for(self, header: PatientHeader) -> HeaderMatcher:
        # PatientHeader holds lists, so it is not hashable; its JSON is a faithful key.
        key = header.model_dump_json()
        with self._lock:
            matcher = self._cache.get(key)
            if matcher is not None:
                self._cache.move_to_end(key)
                return matcher
        matcher = build_matcher(header)
        if self._cache_size:
            with self._lock:
                self._cache[key] = matcher
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        return matcher


GLUED_NAME_MIN_LEN = 5
_TOKEN_GLUE = frozenset("@._-+/\\:=#")
_NAME_PART = re.compile(r"[^\W\d_]+")


def _glued_name_parts(header: PatientHeader) -> dict[str, PhiType]:
    """Folded name parts of at least ``GLUED_NAME_MIN_LEN`` letters, for :func:`_glued_name_spans`."""
    parts: dict[str, PhiType] = {}
    for type_, names in ((PhiType.PATIENT, header.names), (PhiType.PATIENT, header.next_of_kin),
                         (PhiType.DOCTOR, header.doctors)):
        for raw in names:
            for part in _NAME_PART.findall(raw):
                if len(part) >= GLUED_NAME_MIN_LEN:
                    parts.setdefault(_fold(part), type_)
    return parts


def _glued_name_spans(
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


def build_matcher(header: PatientHeader) -> HeaderMatcher:
    sources: list[_Source] = []
    for field_, type_, names in (
        ("names", PhiType.PATIENT, header.names),
        ("next_of_kin", PhiType.PATIENT, header.next_of_kin),
        ("doctors", PhiType.DOCTOR, header.doctors),
    ):
        for raw in names:
            name = parse_name(raw)
            if name is not None:
                sources.append(
                    _Source(partial(_prepared_name_variants, name, type_, field_), _name_needles(name))
                )
    seen_ids: set[str] = set()
    ids = [(header.mrn, PhiType.MEDICALRECORD, "mrn")] if header.mrn else []
    ids.extend((i.value, i.type, "identifiers") for i in header.identifiers)
    # The source system's key is PHI too when it shows up in text; short keys ("p1") are not searched.
    if len(_strip_separators(header.patient_id)) >= 6 and any(c.isdigit() for c in header.patient_id):
        ids.append((header.patient_id, PhiType.IDNUM, "patient_id"))
    for value, type_, field_ in ids:
        core = _strip_separators(value)
        if len(core) < 4 or core.lower() in seen_ids:
            continue
        seen_ids.add(core.lower())
        sources.append(_Source(_bind(_identifier_variants, core, type_, field_), (("s", _fold(core)),)))
    if header.birth_date is not None:
        y2 = f"{header.birth_date.year % 100:02d}"
        sources.append(_Source(_bind(_date_variants, header.birth_date, "birth_date"), (("d", y2),)))
    if header.address is not None:
        sources.append(_Source(_bind(_address_variants, header)))
    for phone in header.phones:
        digits = _phone_digits(phone)
        if len(digits) >= 5:
            sources.append(_Source(_bind(_phone_variants, digits), (("d", digits[-7:]),)))
    for email in header.emails:
        if "@" in email:
            sources.append(_Source(_bind(_email_variants, email), (("f", _fold(email.strip())),)))
    return HeaderMatcher(sources, _glued_name_parts(header).items())


def _bind(fn: Callable[..., list[_Variant]], *args: Any) -> Callable[[], tuple[_Prepared, ...]]:
    return lambda: tuple(_prepare(v) for v in fn(*args))


@lru_cache(maxsize=4096)
def _prepared_name_variants(name: ParsedName, type_: PhiType, field_: str) -> tuple[_Prepared, ...]:
    """Cached: a header often spells one name twice ("Ann Lee", "Lee, Ann"), and doctors recur."""
    return tuple(_prepare(v) for v in _name_variants(name, type_, field_))


def _email_variants(email: str) -> list[_Variant]:
    seq = (("c", _email_before_ok), _lit(email.strip()), ("c", _email_after_ok))
    return [_Variant(seq, PhiType.EMAIL, "emails", len(email), email.strip()[0])]


# --- names -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParsedName:
    first: str | None
    middles: tuple[str, ...]
    last: str


def parse_name(raw: str) -> ParsedName | None:
    """Split ``First Middle Last``, ``Last, First Middle`` or ``LAST^FIRST^MIDDLE`` into parts."""
    s = re.sub(r"\([^)]*\)", " ", raw)  # "Jane Roe (wife)"
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
    out = [t.strip(".,;-'’") for t in tokens]
    out = [t for t in out if t]
    while out and _norm(out[0]) in NAME_TITLES:
        out.pop(0)
    while len(out) > 1 and (_norm(out[-1]) in NAME_SUFFIXES or _norm(out[-1]) in CREDENTIALS):
        out.pop()
    return out


def _is_weak(token: str) -> bool:
    """Tokens that match only title-cased: common words and very short tokens."""
    return len(token) <= 2 or token.lower() in COMMON_WORD_NAMES


_TITLE_PART = re.compile(r"[^\s-]+")
_NAME_RUN_SPLIT = re.compile(r"[-\s'’]+")


def _title(token: str) -> str:
    return _TITLE_PART.sub(lambda m: m.group()[:1].upper() + m.group()[1:].lower(), token)


@lru_cache(maxsize=4096)
def _token_nodes(token: str, sensitive: bool) -> Seq:
    """A name token: apostrophes of either kind, a hyphen optional or a space, case as ``sensitive``."""
    if sensitive:  # title-case each part: "Will", "De La"
        token = _title(token)
    nodes: list[Node] = []
    buf: list[str] = []

    def flush() -> None:
        if buf:
            nodes.append(_lit("".join(buf), icase=not sensitive))
            buf.clear()

    for ch in token:
        if ch in "'’":
            flush()
            nodes.append(("r", _is_apostrophe, 1, 1))
        elif ch == "-":
            flush()
            nodes.append(("r", _is_hyphen_space, 0, 1))
        elif ch.isspace():
            flush()
            nodes.append(_SPACES)
        else:
            buf.append(ch)
    flush()
    return tuple(nodes)


@lru_cache(maxsize=4096)
def _name_needles(name: ParsedName) -> tuple[tuple[str, str], ...]:
    """Some of these occur in any text one of the name's variants matches in: the longest literal run of
    each token a variant may consist of, and the bare initials."""
    tokens = [m for m in name.middles if len(m.strip(".")) > 1]
    if name.first and len(name.first.strip(".")) > 1:
        tokens.append(name.first)
    tokens.append(name.last)
    tokens.extend(re.split(r"[-\s]+", name.last))  # the parts of a compound surname match alone
    needles: set[tuple[str, str]] = set()
    for token in tokens:
        for form in {token, _title(token)}:
            runs = [run for run in _NAME_RUN_SPLIT.split(_fold(form)) if run]
            if runs:
                needles.add(("f", max(runs, key=len)))
    for word in _initials_words(name):
        needles.add(("t", word))
        needles.add(("t", "".join(f"{c}." for c in word)))
    return tuple(sorted(needles))


def _initials_words(name: ParsedName) -> list[str]:
    """Bare initials, upper-case: "JS" and, with middle names, "JAS"."""
    if not name.first or len(name.last) <= 1:
        return []
    initial = name.first[0]
    letters = [initial, *(m[0] for m in name.middles), name.last[0]]
    choices = ([initial, name.last[0]], letters) if name.middles else ([initial, name.last[0]],)
    return ["".join(c.upper() for c in ls) for ls in choices]


_DOTSP: Node = ("a", ((("l", ".", False), _OPT_SPACES), (_SPACES,)))  # "J. Smith", "J.Smith", "J Smith"
_OPT_COMMA_SEP: Seq = (_OPT_SPACES, ("r", _is_comma, 0, 1), _SPACES)  # "Smith, John", "Smith John"
_OPT_DOT: Node = ("r", _is_dot, 0, 1)


def _seq(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Join name parts with the separator their kind needs (a dot may follow an initial)."""
    res: list[tuple[str, str]] = []
    for t in tokens:
        if res:
            res.append(("dotsp" if res[-1][0] == "ini" else "sp", " "))
        res.append(t)
    return res


def _name_variants(name: ParsedName, type_: PhiType, field_: str) -> list[_Variant]:
    out: list[_Variant] = []

    def add(parts: list[tuple[str, str]]) -> None:
        """``parts``: (kind, value) pairs, kind one of tok, ini, sp, dotsp, optcomma, optdot."""
        toks = [v for k, v in parts if k == "tok"]
        if not toks:
            return
        sensitive = all(_is_weak(t) for t in toks)
        seq: list[Node] = [_WB]
        for kind, value in parts:
            if kind == "tok":
                seq.extend(_token_nodes(value, sensitive))
            elif kind == "ini":
                seq.append(("l", value[0].upper(), False))
            elif kind == "dotsp":
                seq.append(_DOTSP)
            elif kind == "sp":
                seq.append(_SPACES)
            elif kind == "optcomma":
                seq.extend(_OPT_COMMA_SEP)
            elif kind == "optdot":
                seq.append(_OPT_DOT)
        seq.append(_WA)
        weight = sum(len(v) + 1 for _, v in parts if v)
        out.append(_Variant(tuple(seq), type_, field_, weight, parts[0][1][0]))

    last = name.last
    first = name.first if name.first and len(name.first.strip(".")) > 1 else None
    initial = name.first[0] if name.first else None
    mids = [("tok", m) for m in name.middles if len(m.strip(".")) > 1]
    mid_initials = [("ini", m[0]) for m in name.middles]
    L = ("tok", last)
    comma = ("optcomma", ",")

    if len(last) > 1:
        add([L])
    if first:
        F = ("tok", first)
        add(_seq([F, L]))
        add([L, comma, F])
        if name.middles:
            if len(mids) == len(name.middles):  # middle names given in full
                add(_seq([F, *mids, L]))
                add([L, comma, *_seq([F, *mids])])
            add(_seq([F, *mid_initials, L]))
            add([L, comma, *_seq([F, *mid_initials]), ("optdot", "")])
        add([F])
    if initial:
        I = ("ini", initial)  # noqa: E741
        add(_seq([I, L]))
        if mid_initials:
            add(_seq([I, *mid_initials, L]))
        add([L, comma, I, ("optdot", "")])  # "Smith J", "Smith, J."
    # Parts of a compound surname alone: "Smith" of "Smith-Jones", "Cruz" of "De La Cruz".
    parts = re.split(r"[-\s]+", last)
    if len(parts) > 1:
        for part in parts:
            if len(part) > 1 and part.lower() not in SURNAME_PARTICLES:
                add([("tok", part)])
    # Bare initials, upper-case only: "JS", "J.S.", "JAS", "J.A.S."
    for word in _initials_words(name):
        if word in CLINICAL_ABBREVIATIONS or not word.isalpha():
            continue
        dotted = "".join(f"{c}." for c in word)
        seq: Seq = (
            ("c", _initials_before_ok),
            ("a", ((("l", word, False), _WA), (("l", dotted, False), ("c", _initials_dotted_after_ok)))),
        )
        anchors: tuple[Anchor, ...] = (("t", word, 0), ("t", dotted, 0))
        out.append(_Variant(seq, type_, field_, len(word), word[0], anchors))
    return out


# --- numbers -----------------------------------------------------------------------------------------


def _strip_separators(value: str) -> str:
    return re.sub(r"[\s\-./#]", "", value)


_ID_SEP_NODE: Node = ("r", _is_id_sep, 0, 1)


def _identifier_variants(core: str, type_: PhiType, field_: str) -> list[_Variant]:
    seq: list[Node] = [_NB if core[0].isdigit() else _WB]
    for k, c in enumerate(core):
        if k:
            seq.append(_ID_SEP_NODE)
        seq.append(_lit(c))
    # A trailing digit may touch letters ("MC#0937884Date"); a trailing letter may not.
    seq.append(_NA if core[-1].isdigit() else ("c", _id_after_letter_ok))
    folded = _fold(core)
    anchor: Anchor = ("i", (folded[0], folded[1:2]), 0)
    return [_Variant(tuple(seq), type_, field_, len(core), core[0], (anchor,), (("s", folded),))]


def _phone_digits(phone: str) -> str:
    main = re.split(r"(?i)\s*(?:x|ext\.?|extension)\s*\d+\s*$", phone.strip())[0]
    digits = re.sub(r"\D", "", main)
    if len(digits) == 11 and digits[0] == "1":
        digits = digits[1:]
    return digits


_PHONE_SEP: Node = ("r", _is_phone_sep, 0, 1)


def _phone_variants(digits: str) -> list[_Variant]:
    if len(digits) == 10:
        area, exch, line = digits[:3], digits[3:6], digits[6:]
        full: Seq = (
            ("c", _no_digit_plus_before),
            _opt(("r", _is_plus, 0, 1), ("l", "1", False), _PHONE_SEP),
            ("r", _is_lparen, 0, 1),
            _lit(area),
            ("r", _is_rparen, 0, 1),
            ("r", _is_phone_sep, 0, None),
            _lit(exch),
            _PHONE_SEP,
            _lit(line),
            _NA,
        )
        # Area code omitted in the text; not when another area code precedes it.
        local: Seq = (("c", _local_phone_before_ok), _lit(exch), _PHONE_SEP, _lit(line), _NA)
        needles = (("d", digits),)
        return [
            _Variant(full, PhiType.PHONE, "phones", 10, f"+1({area[0]}", (("f", area, 4),), needles),
            _Variant(local, PhiType.PHONE, "phones", 7, exch[0], (), (("d", digits[3:]),)),
        ]
    if len(digits) >= 5:
        seq: list[Node] = [("c", _no_digit_before), ("r", _is_plus, 0, 1)]
        for k, c in enumerate(digits):
            if k:
                seq.append(("r", _is_phone_sep_paren, 0, 2))
            seq.append(_lit(c))
        seq.append(_NA)
        anchor: Anchor = ("f", _fold(digits[0]), 1)
        return [
            _Variant(
                tuple(seq), PhiType.PHONE, "phones", len(digits), "+" + digits[0], (anchor,), (("d", digits),)
            )
        ]
    return []


# --- dates -------------------------------------------------------------------------------------------

_DATE_SEP: Node = ("r", _is_date_sep, 1, 1)
_ORDINAL: Node = ("a", ((_lit("st"),), (_lit("nd"),), (_lit("rd"),), (_lit("th"),), ()))


def _number(n: int) -> tuple[Seq, frozenset[str]]:
    """``0?5`` for 5, ``12`` for 12, and the digit runs it matches."""
    if n < 10:
        return (("r", _is_zero, 0, 1), _lit(str(n))), frozenset({str(n), f"0{n}"})
    return (_lit(str(n)),), frozenset({str(n)})


def _date_variants(date: dt.date, field_: str) -> list[_Variant]:
    y4, y2 = f"{date.year:04d}", f"{date.year % 100:02d}"
    m, m_runs = _number(date.month)
    d, d_runs = _number(date.day)
    mm, dd = f"{date.month:02d}", f"{date.day:02d}"
    full_month = MONTHS[date.month - 1]
    spellings = {full_month, full_month[:3]} | ({"sept"} if date.month == 9 else set())
    ordered_spellings = sorted(spellings, key=len, reverse=True)
    mon: Seq = (("a", tuple((_lit(s),) for s in ordered_spellings)), _OPT_DOT)
    day_word: Seq = (*d, _ORDINAL)
    year: Node = ("a", ((_lit(y4),), (_lit(y2),)))
    numeric: list[tuple[Seq, int, frozenset[str]]] = [
        ((*m, _DATE_SEP, *d, _DATE_SEP, year), 10, m_runs),  # 03/05/1950, 3/5/50, 3-5-1950, 03.05.1950
        ((_lit(y4), _DATE_SEP, *m, _DATE_SEP, *d), 10, frozenset({y4})),  # 1950-03-05
        (
            (("a", ((_lit(y4 + mm + dd),), (_lit(mm + dd + y4),))),),
            8,
            frozenset({y4 + mm + dd, mm + dd + y4}),
        ),
    ]
    if date.day != date.month:
        numeric.append(((*d, _DATE_SEP, *m, _DATE_SEP, _lit(y4)), 10, d_runs))  # 05/03/1950, day first
    out = [
        _Variant((_NB, *body, _NA), PhiType.DATE, field_, w, "0123456789", (("r", runs, 0),))
        for body, w, runs in numeric
    ]
    first = "0123456789" + full_month[0]
    no_digit_after: Node = ("c", _no_digit_after)
    # March 5th, 1950
    worded = (
        _WB,
        *mon,
        ("r", _is_hyphen_space, 0, None),
        *day_word,
        ("a", ((_OPT_SPACES, _lit(","), _OPT_SPACES), (("r", _is_hyphen_space, 1, None),))),
        ("a", ((_lit(y4),), (_lit("'" + y2),))),
        no_digit_after,
    )
    out.append(
        _Variant(
            worded, PhiType.DATE, field_, 14, first, tuple(("f", _fold(s), 0) for s in ordered_spellings)
        )
    )
    # 5-Mar-1950
    day_first = (
        _NB,
        *day_word,
        _opt(_SPACES, _lit("of")),
        ("r", _is_date_space, 0, None),
        *mon,
        ("r", _is_comma, 0, 1),
        ("r", _is_date_space, 0, None),
        year,
        no_digit_after,
    )
    out.append(_Variant(day_first, PhiType.DATE, field_, 14, first, (("r", d_runs, 0),)))
    return out


# --- address -----------------------------------------------------------------------------------------

_STREET_SEP: Seq = (_OPT_DOT, ("r", _is_space_comma, 1, None))  # \.?[\s,]+
_STREET_SPLIT = re.compile(r"[\s,]+")


def _street_token(token: str) -> Node:
    spellings = _STREET_WORDS.get(token.lower().strip("."))
    if spellings:
        return ("a", tuple((_lit(s),) for s in spellings))
    return _lit(token.strip("."))


def _address_variants(header: PatientHeader) -> list[_Variant]:
    addr = header.address
    assert addr is not None
    out: list[_Variant] = []
    for line in addr.street:
        tokens = [t for t in _STREET_SPLIT.split(line) if t.strip(".")]
        candidates = [tokens]
        if len(tokens) >= 3 and any(c.isdigit() for c in tokens[0]):
            candidates.append(tokens[1:])  # "Oak Street" without the house number
        for toks in candidates:
            if not toks:
                continue
            seq: list[Node] = [_WB]
            for k, t in enumerate(toks):
                if k:
                    seq.extend(_STREET_SEP)
                seq.append(_street_token(t))
            seq.append(_WA)
            head = toks[0].strip(".")
            spellings = _STREET_WORDS.get(head.lower(), (head,))
            anchors = tuple(("f", _fold(s), 0) for s in spellings) if seq[1][0] == "a" else ()
            first = "".join(w[0] for w in spellings)
            out.append(
                _Variant(tuple(seq), PhiType.STREET, "address.street", len(" ".join(toks)), first, anchors)
            )
    city: Seq | None = None
    words = [w for w in (t.strip(".,;-'’") for t in (addr.city or "").split()) if w]
    if words and len(" ".join(words)) > 1:
        sensitive = len(words) == 1 and _is_weak(words[0])
        nodes: list[Node] = []
        for k, w in enumerate(words):
            if k:
                nodes.append(_SPACES)
            nodes.extend(_token_nodes(w, sensitive))
        city = tuple(nodes)
        out.append(
            _Variant((_WB, *city, _WA), PhiType.CITY, "address.city", len(" ".join(words)), words[0][0])
        )
    if addr.state:
        state = addr.state.strip()
        code = state.upper() if len(state) == 2 and state.isalpha() else _STATE_CODES.get(state.lower())
        full = US_STATES.get(code, state) if code else state
        if len(full) > 2:
            nodes = []
            for k, w in enumerate(full.split()):
                if k:
                    nodes.append(_SPACES)
                nodes.append(_lit(w))
            out.append(_Variant((_WB, *nodes, _WA), PhiType.STATE, "address.state", len(full), full[0]))
        if code:
            code_node: Node = ("l", code, False)
            anchors = (("t", code, 0),)
            # Lookbehinds must be fixed-width: a multi-word or hyphenated city is left to the comma rule.
            fixed = city is not None and len(words) == 1 and "-" not in words[0]
            if fixed and city is not None:
                behind = []
                for s in (" ", ", ", ","):
                    sub = (*city, _lit(s))
                    width = _width(sub)
                    if width is not None:
                        behind.append((("b", sub, width, False),))
                if behind:
                    seq = [("a", tuple(behind)), code_node, _WA]
                    out.append(_Variant(tuple(seq), PhiType.STATE, "address.state", 2, code[0], anchors))
            after_comma: Node = ("a", ((("b", (_lit(","),), 1, False),), (("b", (_lit(", "),), 2, False),)))
            zip_after: Node = ("f", (_SPACES, ("r", _is_digit, 5, 5), ("c", _no_digit_after)), False)
            out.append(
                _Variant(
                    (after_comma, code_node, zip_after), PhiType.STATE, "address.state", 2, code[0], anchors
                )
            )
    if addr.zip:
        digits = re.sub(r"\D", "", addr.zip)
        if len(digits) >= 5:
            z5 = digits[:5]
            before, after = ("c", _no_digit_before), ("c", _no_digit_after)
            if len(digits) == 9:
                seq9 = (before, _lit(z5), ("r", _is_hyphen_space, 0, 1), _lit(digits[5:]), after)
                out.append(_Variant(seq9, PhiType.ZIP, "address.zip", 9, z5[0]))
            seq5 = (before, _lit(z5), _opt(_lit("-"), ("r", _is_digit, 4, 4)), after)
            out.append(_Variant(seq5, PhiType.ZIP, "address.zip", 5, z5[0]))
    if addr.country and len(addr.country) > 1:
        country = addr.country.strip()
        names = list(_US_ALIASES) if country.lower() in _US_ALIASES or country.upper() == "US" else [country]
        for n in names:
            sensitive = len(n.replace(".", "")) <= 3
            nodes = [_WB]
            for k, w in enumerate(n.split()):
                if k:
                    nodes.append(_SPACES)
                nodes.append(_lit(w.upper(), icase=False) if sensitive else _lit(w))
            if n[-1].isalnum():
                nodes.append(_WA)
            out.append(_Variant(tuple(nodes), PhiType.COUNTRY, "address.country", len(n), n[0]))
    return out
