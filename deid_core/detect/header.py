"""The header matcher: finds the values of a note's ``PatientHeader`` in the note text.

Header values are near-certain PHI, so every spelling of them the text may use is searched for: name
variants (last-first, initials, first or last name alone, hyphen parts), identifiers and phones with or
without separators, the birth date in any common format, address parts with street abbreviations.

All variants of one header become one regular expression (one capturing group per variant, the
variants longest first so that the longest spelling wins where several start at the same place),
compiled once per distinct header and cached by the detector instance.

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
from collections.abc import Iterable
from dataclasses import dataclass

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

_NUM_BEFORE = r"(?<!\d)(?<!\d[-./])"
_NUM_AFTER = r"(?!\d)(?![-./]\d)"
_WORD_BEFORE = r"(?<!\w)"
_WORD_AFTER = r"(?!\w)"
_SEP = r"[\s\-./]?"


@dataclass(frozen=True, slots=True)
class _Variant:
    regex: str
    type: PhiType
    field: str
    weight: int
    """Sort key: longer canonical spellings first, so the longest variant wins at a given start."""
    first: str
    """Every character a match can start with (any case): a cheap prefilter before the alternation."""


class HeaderMatcher:
    """The compiled variants of one header. Immutable and safe to share between threads."""

    __slots__ = ("_labels", "_regex", "_size")

    def __init__(self, variants: Iterable[_Variant]) -> None:
        unique: dict[str, _Variant] = {}
        for v in variants:
            unique.setdefault(v.regex, v)  # the first field to produce a spelling owns it
        ordered = sorted(unique.values(), key=lambda v: -v.weight)
        self._size = len(ordered)
        self._regex: re.Pattern[str] | None = None
        self._labels: tuple[tuple[PhiType, str], ...] = ()
        if ordered:
            self._regex, self._labels = _compile(ordered)

    def __len__(self) -> int:
        """The number of distinct variants searched for."""
        return self._size

    def find(self, text: str) -> list[Span]:
        if self._regex is None:
            return []
        spans: list[Span] = []
        for m in self._regex.finditer(text):
            if m.lastindex is None or m.start() == m.end():
                continue
            type_, why = self._labels[m.lastindex - 1]
            spans.append(Span(m.start(), m.end(), type_, SCORE, frozenset({SOURCE}), why))
        return spans


def _char_class(chars: Iterable[str]) -> str:
    return "[" + "".join(c if c.isalnum() else "\\" + c for c in sorted(set(chars))) + "]"


def _compile(ordered: list[_Variant]) -> tuple[re.Pattern[str], tuple[tuple[PhiType, str], ...]]:
    """One regex for all variants, and the (type, explanation) of each of its capturing groups.

    Python's engine would otherwise try every variant at every position of the note. A gate lets through
    only word starts (letter-initial variants all begin at a word boundary) and digits or the other
    characters a number may start with; then the variants are dispatched on their first character, each
    group keeping the longest-first order. A variant that can start with several characters appears in
    each of their groups, under several capturing groups with the same label.
    """
    by_char: dict[str, list[_Variant]] = {}
    for v in ordered:
        for c in sorted({c.lower() for c in v.first}):
            by_char.setdefault(c, []).append(v)
    word = [c for c in by_char if c.isalpha()]
    other = [c for c in by_char if not c.isalpha()]
    gates = [rf"(?<!\w)(?={_char_class(word)})"] if word else []
    if other:
        gates.append(f"(?={_char_class(other)})")
    branches: list[str] = []
    labels: list[tuple[PhiType, str]] = []
    for c, variants in sorted(by_char.items()):
        branches.append(f"(?={_char_class(c)})(?:" + "|".join(f"({v.regex})" for v in variants) + ")")
        labels.extend((v.type, f"header={v.field}") for v in variants)
    pattern = f"(?:{'|'.join(gates)})(?:{'|'.join(branches)})"
    return re.compile(pattern, re.IGNORECASE), tuple(labels)


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


def build_matcher(header: PatientHeader) -> HeaderMatcher:
    variants: list[_Variant] = []
    for field, type_, names in (
        ("names", PhiType.PATIENT, header.names),
        ("next_of_kin", PhiType.PATIENT, header.next_of_kin),
        ("doctors", PhiType.DOCTOR, header.doctors),
    ):
        for raw in names:
            variants.extend(_name_variants(raw, type_, field))
    seen_ids: set[str] = set()
    if header.mrn:
        variants.extend(_identifier_variants(header.mrn, PhiType.MEDICALRECORD, "mrn", seen_ids))
    for ident in header.identifiers:
        variants.extend(_identifier_variants(ident.value, ident.type, "identifiers", seen_ids))
    # The source system's key is PHI too when it shows up in text; short keys ("p1") are not searched.
    if len(_strip_separators(header.patient_id)) >= 6 and any(c.isdigit() for c in header.patient_id):
        variants.extend(_identifier_variants(header.patient_id, PhiType.IDNUM, "patient_id", seen_ids))
    if header.birth_date is not None:
        variants.extend(_date_variants(header.birth_date, "birth_date"))
    if header.address is not None:
        variants.extend(_address_variants(header))
    for phone in header.phones:
        variants.extend(_phone_variants(phone))
    for email in header.emails:
        if "@" in email:
            rx = rf"(?<![\w.+\-]){re.escape(email.strip())}(?![\w\-])(?!\.\w)"
            variants.append(_Variant(rx, PhiType.EMAIL, "emails", len(email), email.strip()[0]))
    return HeaderMatcher(variants)


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


def _token_rx(token: str, sensitive: bool) -> str:
    if sensitive:  # title-case each part: "Will", "De La"
        token = re.sub(r"[^\s-]+", lambda m: m.group()[:1].upper() + m.group()[1:].lower(), token)
    parts = []
    for ch in token:
        if ch in "'’":
            parts.append("['’]")
        elif ch == "-":
            parts.append(r"[-\s]?")
        elif ch.isspace():
            parts.append(r"\s+")
        else:
            parts.append(re.escape(ch))
    rx = "".join(parts)
    return f"(?-i:{rx})" if sensitive else rx


def _seq(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Join name parts with the separator their kind needs (a dot may follow an initial)."""
    res: list[tuple[str, str]] = []
    for t in tokens:
        if res:
            res.append(("dotsp" if res[-1][0] == "ini" else "sp", " "))
        res.append(t)
    return res


def _initial_rx(token: str) -> str:
    return f"(?-i:{re.escape(token[0].upper())})"


def _name_variants(raw: str, type_: PhiType, field: str) -> list[_Variant]:
    name = parse_name(raw)
    if name is None:
        return []
    out: list[_Variant] = []

    def add(parts: list[tuple[str, str]]) -> None:
        """``parts``: (kind, value) pairs, kind one of tok, ini, sp, dotsp, optcomma, optdot."""
        toks = [v for k, v in parts if k == "tok"]
        if not toks:
            return
        sensitive = all(_is_weak(t) for t in toks)
        rx = []
        for kind, value in parts:
            if kind == "tok":
                rx.append(_token_rx(value, sensitive))
            elif kind == "ini":
                rx.append(_initial_rx(value))
            elif kind == "dotsp":  # after an initial: "J. Smith", "J.Smith", "J Smith"
                rx.append(r"(?:\.\s*|\s+)")
            elif kind == "sp":
                rx.append(r"\s+")
            elif kind == "optcomma":
                rx.append(r"\s*,?\s+")
            elif kind == "optdot":
                rx.append(r"\.?")
        weight = sum(len(v) + 1 for _, v in parts if v)
        out.append(_Variant(_WORD_BEFORE + "".join(rx) + _WORD_AFTER, type_, field, weight, parts[0][1][0]))

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
    if initial and len(last) > 1:
        letters = [initial, *(m for _, m in mid_initials), last[0]]
        for ls in ([initial, last[0]], letters) if mid_initials else ([initial, last[0]],):
            word = "".join(c.upper() for c in ls)
            if word in CLINICAL_ABBREVIATIONS or not word.isalpha():
                continue
            dotted = "".join(f"{re.escape(c)}\\." for c in word)
            rx = rf"(?<![\w.])(?-i:{word}(?!\w)|{dotted}(?![\w.]))"
            out.append(_Variant(rx, type_, field, len(word), word[0]))
    return out


# --- numbers -----------------------------------------------------------------------------------------


def _strip_separators(value: str) -> str:
    return re.sub(r"[\s\-./#]", "", value)


def _identifier_variants(value: str, type_: PhiType, field: str, seen: set[str]) -> list[_Variant]:
    core = _strip_separators(value)
    if len(core) < 4 or core.lower() in seen:
        return []
    seen.add(core.lower())
    body = _SEP.join(re.escape(c) for c in core)
    before = _NUM_BEFORE if core[0].isdigit() else _WORD_BEFORE
    # A trailing digit may touch letters ("MC#0937884Date"); a trailing letter may not.
    after = _NUM_AFTER if core[-1].isdigit() else r"(?![A-Za-z0-9])"
    return [_Variant(before + body + after, type_, field, len(core), core[0])]


def _phone_variants(phone: str) -> list[_Variant]:
    main = re.split(r"(?i)\s*(?:x|ext\.?|extension)\s*\d+\s*$", phone.strip())[0]
    digits = re.sub(r"\D", "", main)
    if len(digits) == 11 and digits[0] == "1":
        digits = digits[1:]
    sep = r"[\s\-.]?"
    if len(digits) == 10:
        area, exch, line = digits[:3], digits[3:6], digits[6:]
        full = rf"(?:\+?1[\s\-.]?)?\(?{area}\)?[\s\-.]*{exch}{sep}{line}"
        # Area code omitted in the text; not when another area code precedes it.
        local = rf"(?<!\d)(?<!\d[\s\-.])(?<!\d\))(?<!\d\)\s){exch}{sep}{line}"
        return [
            _Variant(rf"(?<![\d+]){full}{_NUM_AFTER}", PhiType.PHONE, "phones", 10, f"+1({area[0]}"),
            _Variant(local + _NUM_AFTER, PhiType.PHONE, "phones", 7, exch[0]),
        ]
    if len(digits) >= 5:
        body = r"[\s\-.()]{0,2}".join(digits)
        return [
            _Variant(rf"(?<!\d)\+?{body}{_NUM_AFTER}", PhiType.PHONE, "phones", len(digits), "+" + digits[0])
        ]
    return []


# --- dates -------------------------------------------------------------------------------------------


def _date_variants(date: dt.date, field: str) -> list[_Variant]:
    y4, y2 = f"{date.year:04d}", f"{date.year % 100:02d}"
    m = f"0?{date.month}" if date.month < 10 else str(date.month)
    d = f"0?{date.day}" if date.day < 10 else str(date.day)
    mm, dd = f"{date.month:02d}", f"{date.day:02d}"
    full_month = MONTHS[date.month - 1]
    spellings = {full_month, full_month[:3]} | ({"sept"} if date.month == 9 else set())
    mon = "(?:" + "|".join(sorted((re.escape(s) for s in spellings), key=len, reverse=True)) + r")\.?"
    day_word = rf"{d}(?:st|nd|rd|th)?"
    sep = r"[/\-.]"
    variants = [
        (rf"{m}{sep}{d}{sep}(?:{y4}|{y2})", 10),  # 03/05/1950, 3/5/50, 3-5-1950, 03.05.1950
        (rf"{y4}{sep}{m}{sep}{d}", 10),  # 1950-03-05
        (rf"(?:{y4}{mm}{dd}|{mm}{dd}{y4})", 8),  # 19500305, 03051950
    ]
    if date.day != date.month:
        variants.append((rf"{d}{sep}{m}{sep}{y4}", 10))  # 05/03/1950, day first
    out = [
        _Variant(_NUM_BEFORE + rx + _NUM_AFTER, PhiType.DATE, field, w, "0123456789") for rx, w in variants
    ]
    worded = [
        (rf"{_WORD_BEFORE}{mon}[\s\-]*{day_word}(?:\s*,\s*|[\s\-]+)(?:{y4}|'{y2})", 14),  # March 5th, 1950
        (rf"{_NUM_BEFORE}{day_word}(?:\s+of)?[\s\-/]*{mon},?[\s\-/]*(?:{y4}|{y2})", 14),  # 5-Mar-1950
    ]
    out.extend(
        _Variant(rx + r"(?!\d)", PhiType.DATE, field, w, "0123456789" + full_month[0]) for rx, w in worded
    )
    return out


# --- address -----------------------------------------------------------------------------------------


def _street_token_rx(token: str) -> str:
    spellings = _STREET_WORDS.get(token.lower().strip("."))
    if spellings:
        return "(?:" + "|".join(re.escape(s) for s in spellings) + ")"
    return re.escape(token.strip("."))


def _address_variants(header: PatientHeader) -> list[_Variant]:
    addr = header.address
    assert addr is not None
    out: list[_Variant] = []
    for line in addr.street:
        tokens = [t for t in re.split(r"[\s,]+", line) if t.strip(".")]
        candidates = [tokens]
        if len(tokens) >= 3 and any(c.isdigit() for c in tokens[0]):
            candidates.append(tokens[1:])  # "Oak Street" without the house number
        for toks in candidates:
            if not toks:
                continue
            rx = r"\.?[\s,]+".join(_street_token_rx(t) for t in toks)
            head = toks[0].strip(".")
            first = "".join(w[0] for w in _STREET_WORDS.get(head.lower(), (head,)))
            out.append(
                _Variant(
                    _WORD_BEFORE + rx + _WORD_AFTER,
                    PhiType.STREET,
                    "address.street",
                    len(" ".join(toks)),
                    first,
                )
            )
    city_rx = None
    words = [w for w in (t.strip(".,;-'’") for t in (addr.city or "").split()) if w]
    if words and len(" ".join(words)) > 1:
        sensitive = len(words) == 1 and _is_weak(words[0])
        city_rx = r"\s+".join(_token_rx(w, sensitive) for w in words)
        out.append(
            _Variant(
                _WORD_BEFORE + city_rx + _WORD_AFTER,
                PhiType.CITY,
                "address.city",
                len(" ".join(words)),
                words[0][0],
            )
        )
    if addr.state:
        state = addr.state.strip()
        code = state.upper() if len(state) == 2 and state.isalpha() else _STATE_CODES.get(state.lower())
        full = US_STATES.get(code, state) if code else state
        if len(full) > 2:
            rx = r"\s+".join(re.escape(w) for w in full.split())
            out.append(
                _Variant(_WORD_BEFORE + rx + _WORD_AFTER, PhiType.STATE, "address.state", len(full), full[0])
            )
        if code:
            # Lookbehinds must be fixed-width: a multi-word or hyphenated city is left to the comma rule.
            fixed = city_rx is not None and len(words) == 1 and "-" not in words[0]
            after_city = [rf"(?<={city_rx}{s})" for s in (" ", ", ", ",")] if fixed else []
            before_zip = r"(?<=,)|(?<=, )"
            zip_after = r"(?=\s+\d{5}(?!\d))"
            rx = "(?:" + "|".join(after_city) + ")" if after_city else ""
            alts = []
            if rx:
                alts.append(rf"{rx}(?-i:{code})(?![\w])")
            alts.append(rf"(?:{before_zip})(?-i:{code}){zip_after}")
            for a in alts:
                out.append(_Variant(a, PhiType.STATE, "address.state", 2, code[0]))
    if addr.zip:
        digits = re.sub(r"\D", "", addr.zip)
        if len(digits) >= 5:
            z5 = digits[:5]
            if len(digits) == 9:
                out.append(
                    _Variant(rf"(?<!\d){z5}[\-\s]?{digits[5:]}(?!\d)", PhiType.ZIP, "address.zip", 9, z5[0])
                )
            out.append(_Variant(rf"(?<!\d){z5}(?:-\d{{4}})?(?!\d)", PhiType.ZIP, "address.zip", 5, z5[0]))
    if addr.country and len(addr.country) > 1:
        country = addr.country.strip()
        names = list(_US_ALIASES) if country.lower() in _US_ALIASES or country.upper() == "US" else [country]
        for n in names:
            sensitive = len(n.replace(".", "")) <= 3
            rx = r"\s+".join(re.escape(w.upper() if sensitive else w) for w in n.split())
            if sensitive:
                rx = f"(?-i:{rx})"
            end = r"(?!\w)" if n[-1].isalnum() else ""
            out.append(
                _Variant(rf"{_WORD_BEFORE}{rx}{end}", PhiType.COUNTRY, "address.country", len(n), n[0])
            )
    return out
