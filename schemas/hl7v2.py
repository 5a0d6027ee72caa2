"""HL7 v2 codec: notes in the text OBX segments of ORU and MDM messages, the patient header in PID/NK1/PV1.

Segments, fields, repetitions and components are split by python-hl7 (``hl7.parse``); this module only
normalises segment terminators first (``\\r\\n`` and ``\\n`` become ``\\r``, blank lines and MLLP framing
bytes go) and decodes/encodes HL7 escape sequences itself (see ``_Codec.unescape`` for why).

Charset policy: the bytes are decoded as UTF-8 (a BOM is dropped). If that fails, MSH-18 is read from a
lossless latin-1 view and, if it names a single-byte character set this module knows (``8859/n``,
``CP1252``), the message is decoded with it. Anything else is refused with ``hl7.decode``: guessing
latin-1 would silently garble non-ASCII names and the header matcher would then miss them in the notes.
``render`` writes the charset the message was read with; a character that charset cannot carry becomes
``?``.

Notes: one ``NoteText`` per OBR group for ORU (text OBX before the first OBR form their own group), one
per message for MDM; ``note_id`` is ``f"{MSH-10}:{i}"`` over the groups that carry text. A note's text is
the OBX-5 values of its text-typed OBX (TX, FT, ST), each repetition one line, joined with ``"\\n"``;
CE, NM, ED, ... values are not note text. Groups whose text is blank carry no note.

Rendering writes a note's new text back line by line into the OBX-5 repetitions it was read from, each
taking as many lines as it held before, so an unchanged text gives back the same fields. If the line
count changed, the last repetition takes all surplus lines (joined with ``\\.br\\``) and repetitions left
without a line are removed, whole OBX segments included, so that re-reading gives exactly the new text.

Header PHI: ``_PHI_FIELDS`` lists the PHI components of PID, NK1, PV1 and the clinician fields of OBR,
OBX and TXA. ``header_values`` and ``render`` walk the same list, so every reported value is replaced.
Values are reported per subcomponent, unescaped, exactly as sent (``"198808181126+0215"`` for a birth
date). Segments not listed (MSH, EVN, NTE, PRT, CTD, GT1, IN1, ...) are passed through unchanged.

Error codes: ``hl7.not_hl7`` (no leading MSH), ``hl7.decode`` (charset policy above), ``hl7.malformed``
(bad delimiters, empty MSH-9/MSH-10, batches, parser failure), ``hl7.unsupported_type`` (not ORU, MDM or a
demographic ADT event), ``hl7.missing_pid`` (no PID or no PID-3/2/4 id), ``hl7.multi_patient`` (several
PID: notes could not be attributed), ``hl7.no_text`` (ORU/MDM without non-blank TX/FT/ST OBX).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import hl7
from pydantic import ValidationError

from schemas.events import EventFormat, EventParseError, HeaderSurrogates, NoteText, ParsedMessage
from schemas.patient import Address, Identifier, PatientHeader
from schemas.phi import PhiType

DEFAULT_DEMOGRAPHIC_EVENTS = frozenset({"A01", "A04", "A08", "A28", "A31"})
TEXT_VALUE_TYPES = frozenset({"TX", "FT", "ST"})

# HL7 table 0203 identifier type codes (CX.5); "MRN" is not in the table but common in the wild.
IDENTIFIER_TYPES: dict[str, PhiType] = {
    "MR": PhiType.MEDICALRECORD,
    "MRN": PhiType.MEDICALRECORD,
    "SS": PhiType.SSN,
    "SB": PhiType.SSN,
    "AN": PhiType.ACCOUNT,
    "MB": PhiType.HEALTHPLAN,
    "SN": PhiType.HEALTHPLAN,
    "DL": PhiType.LICENSE,
}

# MSH-18 values we decode when the bytes are not UTF-8, mapped to Python codecs.
_CHARSETS: dict[str, str] = {
    **{f"8859/{n}": f"iso8859-{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 15)},
    "CP1252": "cp1252",
    "WINDOWS-1252": "cp1252",
}

# Runs of segment terminators: HL7 wants \r; files and queues often carry \n or \r\n and blank lines.
_TERMINATORS = re.compile(r"[\r\n]+")
_MLLP_FRAMING = "\x0b\x1c"
# Repeat counts in formatting commands (\.sp5\) are capped so a crafted message cannot blow up memory.
_MAX_REPEAT = 100
_DATE = re.compile(r"^(\d{4})(\d{2})(\d{2})")


def _error(code: str, message: str) -> EventParseError:
    return EventParseError(code, message)


# --- what is PHI where -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Part:
    """PHI at component ``comp`` (1-based); ``sub`` None means every subcomponent, else that one."""

    comp: int
    type: PhiType | None
    """None: the identifier type follows CX.5 (``IDENTIFIER_TYPES``), defaulting to ``_Spec.default``."""
    sub: int | None = None


@dataclass(frozen=True, slots=True)
class _Spec:
    segment: str
    field: int
    parts: tuple[_Part, ...]
    default: PhiType = PhiType.IDNUM


def _xpn(t: PhiType = PhiType.PATIENT) -> tuple[_Part, ...]:
    # Family name (all FN subcomponents: surname, prefixes, partner's surname), given, middle.
    return (_Part(1, t), _Part(2, t), _Part(3, t))


def _xcn() -> tuple[_Part, ...]:
    return (
        _Part(1, PhiType.IDNUM),
        _Part(2, PhiType.DOCTOR),
        _Part(3, PhiType.DOCTOR),
        _Part(4, PhiType.DOCTOR),
    )


def _xad() -> tuple[_Part, ...]:
    return (
        _Part(1, PhiType.STREET),
        _Part(2, PhiType.STREET),
        _Part(3, PhiType.CITY),
        _Part(4, PhiType.STATE),
        _Part(5, PhiType.ZIP),
        _Part(6, PhiType.COUNTRY),
        _Part(8, PhiType.LOCATION_OTHER),
        _Part(9, PhiType.LOCATION_OTHER),
    )


def _xtn() -> tuple[_Part, ...]:
    # XTN.1 (legacy formatted number), 4 e-mail, 6 area code, 7 local number, 8 extension, 12 unformatted.
    return (
        _Part(1, PhiType.PHONE),
        _Part(4, PhiType.EMAIL),
        _Part(6, PhiType.PHONE),
        _Part(7, PhiType.PHONE),
        _Part(8, PhiType.PHONE),
        _Part(12, PhiType.PHONE),
    )


def _pl() -> tuple[_Part, ...]:
    return (
        _Part(1, PhiType.DEPARTMENT, 1),
        _Part(2, PhiType.ROOM),
        _Part(3, PhiType.ROOM),
        _Part(4, PhiType.HOSPITAL, 1),
        _Part(9, PhiType.LOCATION_OTHER),
    )


def _one(t: PhiType | None) -> tuple[_Part, ...]:
    return (_Part(1, t, 1),)


_TS = _one(PhiType.DATE)


def _spec(segment: str, field: int, parts: tuple[_Part, ...], default: PhiType = PhiType.IDNUM) -> _Spec:
    return _Spec(segment, field, parts, default)


_PHI_FIELDS: tuple[_Spec, ...] = (
    _spec("PID", 2, _one(None)),
    _spec("PID", 3, _one(None)),
    _spec("PID", 4, _one(None)),
    _spec("PID", 5, _xpn()),
    _spec("PID", 6, _xpn()),  # mother's maiden name
    _spec("PID", 7, _TS),
    _spec("PID", 9, _xpn()),  # alias
    _spec("PID", 11, _xad()),
    _spec("PID", 12, _one(PhiType.LOCATION_OTHER)),  # county
    _spec("PID", 13, _xtn()),
    _spec("PID", 14, _xtn()),
    _spec("PID", 18, _one(PhiType.ACCOUNT)),
    _spec("PID", 19, _one(PhiType.SSN)),
    _spec("PID", 20, _one(PhiType.LICENSE)),
    _spec("PID", 21, _one(PhiType.IDNUM)),  # mother's identifier
    _spec("PID", 23, _one(PhiType.LOCATION_OTHER)),  # birth place
    _spec("PID", 29, _TS),  # death date
    _spec("PID", 40, _xtn()),
    _spec("NK1", 2, _xpn()),
    _spec("NK1", 4, _xad()),
    _spec("NK1", 5, _xtn()),
    _spec("NK1", 6, _xtn()),
    _spec("NK1", 12, _one(PhiType.IDNUM)),
    _spec("NK1", 13, _one(PhiType.ORGANIZATION)),
    _spec("NK1", 16, _TS),
    _spec("NK1", 30, _xpn()),
    _spec("NK1", 31, _xtn()),
    _spec("NK1", 32, _xad()),
    _spec("NK1", 33, _one(PhiType.IDNUM)),
    _spec("NK1", 37, _one(PhiType.SSN)),
    _spec("NK1", 41, _xtn()),
    _spec("PV1", 3, _pl()),
    _spec("PV1", 6, _pl()),
    _spec("PV1", 7, _xcn()),
    _spec("PV1", 8, _xcn()),
    _spec("PV1", 9, _xcn()),
    _spec("PV1", 11, _pl()),
    _spec("PV1", 17, _xcn()),
    _spec("PV1", 19, _one(PhiType.IDNUM)),  # visit number
    _spec("PV1", 42, _pl()),
    _spec("PV1", 43, _pl()),
    _spec("PV1", 44, _TS),
    _spec("PV1", 45, _TS),
    _spec("PV1", 50, _one(PhiType.IDNUM)),
    _spec("PV1", 52, _xcn()),
    _spec("OBR", 16, _xcn()),
    _spec("OBR", 28, _xcn()),  # result copies to
    _spec("OBX", 16, _xcn()),
    _spec("OBX", 25, _xcn()),  # performing organisation's medical director
    _spec("TXA", 5, _xcn()),
    _spec("TXA", 9, _xcn()),
    _spec("TXA", 10, _xcn()),
    _spec("TXA", 11, _xcn()),
    _spec("TXA", 22, _xcn()),
)

_DOCTOR_FIELDS: tuple[tuple[str, int], ...] = (
    ("PV1", 7),
    ("PV1", 8),
    ("PV1", 9),
    ("PV1", 17),
    ("PV1", 52),
    ("OBR", 16),
    ("TXA", 5),
    ("TXA", 9),
    ("TXA", 10),
    ("TXA", 22),
    ("OBX", 16),
)


# --- separators and escapes ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Codec:
    """The message's delimiters and charset: what escaping and hex sequences are relative to."""

    field: str
    repetition: str
    component: str
    subcomponent: str
    escape: str
    charset: str

    def unescape(self, value: str) -> str:
        """Decode HL7 escape sequences (v2.8 section 2.7).

        Not ``hl7.util.unescape``: it logs the whole field value on a malformed sequence (PHI in logs),
        raises on ``\\.spX\\``, maps ``\\.br\\`` to ``\\r`` and decodes ``\\X..\\`` byte by byte
        instead of in the message charset.
        """
        if self.escape not in value:
            return value
        out = _escape_pattern(self.escape).sub(self._sequence, value)
        return out.replace("\r\n", "\n").replace("\r", "\n")

    def _sequence(self, match: re.Match[str]) -> str:
        seq = match.group(1)
        simple = {
            "F": self.field,
            "S": self.component,
            "T": self.subcomponent,
            "R": self.repetition,
            "E": self.escape,
        }
        if seq in simple:
            return simple[seq]
        if seq[:1] == "X":
            hexdigits = seq[1:]
            if len(hexdigits) % 2 or not re.fullmatch(r"[0-9A-Fa-f]*", hexdigits):
                return ""
            return bytes.fromhex(hexdigits).decode(self.charset, errors="replace")
        if seq[:3] in (".br", ".sp", ".ce"):
            return "\n" * _repeat(seq[3:]) if seq[:3] == ".sp" else "\n"
        if seq[:3] == ".sk":
            return " " * _repeat(seq[3:])
        # \H\ \N\ (highlighting), .fi .nf .in .ti (layout), \C..\ \M..\ (charset switches), \Z..\ (local).
        return ""

    def escape_text(self, value: str) -> str:
        table = {
            ord(self.escape): f"{self.escape}E{self.escape}",
            ord(self.field): f"{self.escape}F{self.escape}",
            ord(self.component): f"{self.escape}S{self.escape}",
            ord(self.subcomponent): f"{self.escape}T{self.escape}",
            ord(self.repetition): f"{self.escape}R{self.escape}",
            ord("\n"): f"{self.escape}.br{self.escape}",
            ord("\r"): f"{self.escape}.br{self.escape}",
        }
        return value.replace("\r\n", "\n").translate(table)


@lru_cache(maxsize=8)
def _escape_pattern(esc: str) -> re.Pattern[str]:
    e = re.escape(esc)
    return re.compile(f"{e}([^{e}\r]*){e}")


def _repeat(arg: str) -> int:
    arg = arg.strip().lstrip("+")
    return min(int(arg), _MAX_REPEAT) if arg.isdigit() else 1


# --- loading -----------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Loaded:
    msg: hl7.Message
    codec: _Codec
    names: list[str]
    """Segment ids in message order, read once: hl7 containers make every index lookup a Python call."""

    def segments(self, name: str) -> list[hl7.Segment]:
        return [seg for seg, n in zip(self.msg, self.names, strict=True) if n == name]


def _normalise(text: str) -> str:
    text = text.lstrip("\ufeff").strip().strip(_MLLP_FRAMING).strip()
    return _TERMINATORS.sub("\r", text)


def _decode(raw: bytes) -> tuple[str, str]:
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    # latin-1 maps every byte, so this view is only used to read MSH-18 before choosing the real charset.
    view = _normalise(raw.decode("latin-1"))
    hint = ""
    if view.startswith("MSH") and len(view) > 8:
        try:
            hint = _leaf(_parse_text(view)[0], 18).strip().upper()
        except EventParseError:
            hint = ""
    charset = _CHARSETS.get(hint)
    if charset is None:
        raise _error("hl7.decode", "message is not UTF-8 and MSH-18 names no supported single-byte charset")
    try:
        return raw.decode(charset), charset
    except UnicodeDecodeError:
        raise _error("hl7.decode", f"message is not valid in its declared charset {hint}") from None


def _parse_text(text: str) -> hl7.Message:
    if not text.startswith("MSH"):
        raise _error("hl7.not_hl7", "message does not start with an MSH segment")
    if len(text) < 8:
        raise _error("hl7.malformed", "MSH segment too short")
    field_sep = text[3]
    end = text.find(field_sep, 4)
    encoding = text[4:end] if end > 0 else ""
    delimiters = field_sep + encoding
    if (
        len(encoding) not in (4, 5)
        or len(set(delimiters)) != len(delimiters)
        or any(c.isalnum() or c.isspace() for c in delimiters)
    ):
        raise _error("hl7.malformed", "MSH-1/MSH-2 do not define valid delimiters")
    try:
        msg = hl7.parse(text)
    except Exception:  # noqa: BLE001 - third-party parser on untrusted input; its messages may quote data
        raise _error("hl7.malformed", "hl7 parser rejected the message") from None
    if sum(1 for seg in msg if _name(seg) == "MSH") != 1:
        raise _error("hl7.malformed", "expected exactly one MSH segment (batches are not supported)")
    return msg


def _load(raw: bytes) -> _Loaded:
    if not isinstance(raw, bytes | bytearray | memoryview):
        raise _error("hl7.not_hl7", f"expected bytes, got {type(raw).__name__}")
    text, charset = _decode(bytes(raw))
    msg = _parse_text(_normalise(text))
    seps = msg.separators  # "\r", field, repetition, component, subcomponent
    codec = _Codec(seps[1], seps[2], seps[3], seps[4], msg.esc, charset)
    return _Loaded(msg, codec, [_name(seg) for seg in msg])


# --- reading values ----------------------------------------------------------------------------------


def _name(seg: hl7.Segment) -> str:
    if not seg or not seg[0]:
        return ""
    head = seg[0][0]
    return head if isinstance(head, str) else str(head)


def _grid(field: object) -> list[list[list[str]]]:
    """A field as repetitions -> components -> subcomponents of raw (escaped) strings."""
    if isinstance(field, str):
        return [[[field]]]
    reps: list[list[list[str]]] = []
    for rep in field:  # type: ignore[attr-defined]
        if isinstance(rep, str):
            reps.append([[rep]])
            continue
        reps.append([[comp] if isinstance(comp, str) else [str(s) for s in comp] for comp in rep])
    return reps


def _field(seg: hl7.Segment, n: int) -> object | None:
    return seg[n] if 0 < n < len(seg) else None


def _leaf(seg: hl7.Segment, n: int, rep: int = 1, comp: int = 1, sub: int = 1) -> str:
    """Raw value at ``seg-n.rep.comp.sub`` (1-based), '' when absent."""
    field = _field(seg, n)
    if field is None:
        return ""
    grid = _grid(field)
    try:
        return grid[rep - 1][comp - 1][sub - 1]
    except IndexError:
        return ""


def _iter_leaves(field: object) -> Iterator[tuple[int, int, list[object], int]]:
    """(component, subcomponent, container, index) of each leaf string, for reading and assignment."""
    for rep in field:  # type: ignore[attr-defined]
        if isinstance(rep, str):
            continue
        for c, comp in enumerate(rep, 1):
            if isinstance(comp, str):
                yield c, 1, rep, c - 1
            else:
                for s in range(len(comp)):
                    yield c, s + 1, comp, s


def _leaves(field: object) -> Iterator[tuple[int, int, list[object], int]]:
    # A field without any delimiter is a Field holding one plain string.
    if len(field) == 1 and isinstance(field[0], str):  # type: ignore[arg-type, index]
        yield 1, 1, field, 0  # type: ignore[misc]
        return
    yield from _iter_leaves(field)


def _is_value(raw: str) -> bool:
    # '""' is HL7's explicit null ("delete this value"), not data.
    return bool(raw.strip()) and raw != '""'


@dataclass(frozen=True, slots=True)
class _PhiLeaf:
    type: PhiType
    value: str
    container: list[object]
    index: int


def _phi_leaves(loaded: _Loaded) -> Iterator[_PhiLeaf]:
    by_segment: dict[str, list[_Spec]] = {}
    for spec in _PHI_FIELDS:
        by_segment.setdefault(spec.segment, []).append(spec)
    for seg, name in zip(loaded.msg, loaded.names, strict=True):
        specs = by_segment.get(name)
        if not specs:
            continue
        for spec in specs:
            field = _field(seg, spec.field)
            if field is None:
                continue
            wanted = {p.comp: p for p in spec.parts}
            # CX.5 of the same repetition decides an identifier's type, so walk per repetition.
            for rep_field in _split_reps(field):
                cx_type = _identifier_type(_grid(rep_field)[0], spec.default)
                for comp, sub, container, index in _leaves(rep_field):
                    part = wanted.get(comp)
                    if part is None or (part.sub is not None and part.sub != sub):
                        continue
                    raw = container[index]
                    if not isinstance(raw, str) or not _is_value(raw):
                        continue
                    phi_type = part.type if part.type is not None else cx_type
                    yield _PhiLeaf(phi_type, loaded.codec.unescape(raw), container, index)


def _split_reps(field: object) -> list[object]:
    """Each repetition as a one-repetition field view sharing the parsed containers."""
    if len(field) == 1 and isinstance(field[0], str):  # type: ignore[arg-type, index]
        return [field]
    return [[rep] for rep in field]  # type: ignore[attr-defined]


def _identifier_type(rep: list[list[str]], default: PhiType) -> PhiType:
    code = rep[4][0].strip().upper() if len(rep) > 4 and rep[4] else ""
    return IDENTIFIER_TYPES.get(code, default)


# --- the patient header ------------------------------------------------------------------------------


def _text(codec: _Codec, subs: list[str]) -> str:
    return " ".join(v for v in (codec.unescape(s).strip() for s in subs if _is_value(s)) if v)


def _component(codec: _Codec, rep: list[list[str]], comp: int, first_only: bool = True) -> str:
    if comp > len(rep):
        return ""
    subs = rep[comp - 1][:1] if first_only else rep[comp - 1]
    return _text(codec, subs)


def _person(codec: _Codec, rep: list[list[str]], family: int) -> str:
    """'Given Middle Family' from an XPN (family=1) or XCN (family=2) repetition."""
    parts = [
        _component(codec, rep, family + 1),
        _component(codec, rep, family + 2),
        _component(codec, rep, family),
    ]
    return " ".join(p for p in parts if p)


def _add(items: list[str], value: str) -> None:
    if value and value not in items:
        items.append(value)


def _phones(codec: _Codec, rep: list[list[str]]) -> tuple[str, str]:
    phone = _component(codec, rep, 1) or _component(codec, rep, 12)
    if not phone:
        phone = " ".join(p for p in (_component(codec, rep, 6), _component(codec, rep, 7)) if p)
    return phone, _component(codec, rep, 4)


def _birth_date(raw: str) -> dt.date | None:
    m = _DATE.match(raw.strip())
    if not m:
        return None
    try:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def _header(loaded: _Loaded) -> PatientHeader:
    pids = loaded.segments("PID")
    if not pids:
        raise _error("hl7.missing_pid", "message has no PID segment")
    if len(pids) > 1:
        raise _error("hl7.multi_patient", f"message carries {len(pids)} PID segments; expected one")
    pid, codec = pids[0], loaded.codec

    patient_id = ""
    mrn: str | None = None
    identifiers: list[Identifier] = []
    seen: set[tuple[str, PhiType]] = set()

    def add_id(value: str, phi_type: PhiType, system: str) -> None:
        nonlocal mrn
        if not value or (value, phi_type) in seen:
            return
        seen.add((value, phi_type))
        if phi_type is PhiType.MEDICALRECORD and mrn is None:
            mrn = value
        else:
            identifiers.append(Identifier(value=value, type=phi_type, system=system or None))

    for n, default in ((3, PhiType.IDNUM), (2, PhiType.IDNUM), (4, PhiType.IDNUM), (18, PhiType.ACCOUNT)):
        typed = n != 18
        for rep in _grid(_field(pid, n) or ""):
            value = _component(codec, rep, 1)
            if not value:
                continue
            patient_id = patient_id or value
            phi_type = _identifier_type(rep, default) if typed else default
            add_id(value, phi_type, _component(codec, rep, 4))
    for n, phi_type in ((19, PhiType.SSN), (20, PhiType.LICENSE)):
        add_id(_component(codec, _grid(_field(pid, n) or "")[0], 1), phi_type, "")
    if not patient_id:
        raise _error("hl7.missing_pid", "PID carries no patient identifier in PID-3, PID-2 or PID-4")

    names: list[str] = []
    for n in (5, 9):
        for rep in _grid(_field(pid, n) or ""):
            _add(names, _person(codec, rep, 1))

    address: Address | None = None
    addr = _grid(_field(pid, 11) or "")[0]
    street = [s for s in (_component(codec, addr, 1, first_only=False), _component(codec, addr, 2)) if s]
    city, state, zip_, country = (_component(codec, addr, c) for c in (3, 4, 5, 6))
    if street or city or state or zip_ or country:
        address = Address(
            street=street, city=city or None, state=state or None, zip=zip_ or None, country=country or None
        )

    phones: list[str] = []
    emails: list[str] = []
    for n in (13, 14, 40):
        for rep in _grid(_field(pid, n) or ""):
            phone, email = _phones(codec, rep)
            _add(phones, phone)
            _add(emails, email)

    next_of_kin: list[str] = []
    for rep in _grid(_field(pid, 6) or ""):
        _add(next_of_kin, _person(codec, rep, 1))
    for nk1 in loaded.segments("NK1"):
        for n in (2, 30):
            for rep in _grid(_field(nk1, n) or ""):
                _add(next_of_kin, _person(codec, rep, 1))

    doctors: list[str] = []
    for seg_name, n in _DOCTOR_FIELDS:
        for seg in loaded.segments(seg_name):
            for rep in _grid(_field(seg, n) or ""):
                _add(doctors, _person(codec, rep, 2))

    try:
        return PatientHeader(
            patient_id=patient_id,
            names=names,
            mrn=mrn,
            identifiers=identifiers,
            birth_date=_birth_date(_leaf(pid, 7)),
            sex=_component(codec, _grid(_field(pid, 8) or "")[0], 1) or None,
            address=address,
            phones=phones,
            emails=emails,
            next_of_kin=next_of_kin,
            doctors=doctors,
        )
    except ValidationError:
        # pydantic's messages quote the offending value.
        raise _error("hl7.malformed", "PID values do not form a valid patient header") from None


# --- notes -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Slot:
    """One OBX-5 repetition holding note text, and how many lines it held when read."""

    segment: hl7.Segment
    rep: int
    lines: int


@dataclass(frozen=True, slots=True)
class _Note:
    text: str
    slots: tuple[_Slot, ...]


def _message_type(loaded: _Loaded) -> tuple[str, str]:
    msh = loaded.msg[0]
    return _leaf(msh, 9, 1, 1).strip().upper(), _leaf(msh, 9, 1, 2).strip().upper()


def _is_text_obx(seg: hl7.Segment) -> bool:
    return len(seg) > 5 and _leaf(seg, 2).strip().upper() in TEXT_VALUE_TYPES


def _notes(loaded: _Loaded, per_obr: bool) -> list[_Note]:
    groups: list[list[hl7.Segment]] = [[]]
    for seg, name in zip(loaded.msg, loaded.names, strict=True):
        if per_obr and name == "OBR" and groups[-1]:
            groups.append([])
        if name == "OBX" and _is_text_obx(seg):
            groups[-1].append(seg)
    notes: list[_Note] = []
    for group in groups:
        pieces: list[str] = []
        slots: list[_Slot] = []
        for seg in group:
            field = seg[5]
            reps = [field[0]] if len(field) == 1 and isinstance(field[0], str) else list(field)
            for r, rep in enumerate(reps):
                piece = loaded.codec.unescape(str(rep))
                pieces.append(piece)
                slots.append(_Slot(seg, r, piece.count("\n") + 1))
        text = "\n".join(pieces)
        if text.strip():
            notes.append(_Note(text, tuple(slots)))
    return notes


def _classify(loaded: _Loaded, demographic_events: frozenset[str]) -> tuple[str, bool]:
    """('ORU' | 'MDM' | 'ADT', demographics_only) or ``hl7.unsupported_type``."""
    kind, event = _message_type(loaded)
    if not kind:
        raise _error("hl7.malformed", "MSH-9 (message type) is empty")
    if kind in ("ORU", "MDM"):
        return kind, False
    if kind == "ADT" and event in demographic_events:
        return kind, True
    label = (
        f"{kind}^{event}"
        if re.fullmatch(r"[A-Z0-9_]{1,8}", kind) and re.fullmatch(r"[A-Z0-9_]{0,8}", event)
        else "?"
    )
    raise _error("hl7.unsupported_type", f"message type {label} is not handled")


def _write_note(loaded: _Loaded, note: _Note, text: str) -> list[_Slot]:
    """Write ``text`` into the note's slots; return the slots left without a line (to be removed)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    pos = 0
    unused: list[_Slot] = []
    for i, slot in enumerate(note.slots):
        if pos >= len(lines):
            unused.append(slot)
            continue
        last = i == len(note.slots) - 1
        chunk = lines[pos:] if last else lines[pos : pos + slot.lines]
        pos += len(chunk)
        slot.segment[5][slot.rep] = loaded.codec.escape_text("\n".join(chunk))
    return unused


def _remove(loaded: _Loaded, unused: list[_Slot]) -> None:
    by_segment: dict[int, list[_Slot]] = {}
    for slot in unused:
        by_segment.setdefault(id(slot.segment), []).append(slot)
    for slots in by_segment.values():
        seg = slots[0].segment
        field = seg[5]
        reps = {s.rep for s in slots}
        if len(reps) == len(field):
            for i in range(len(loaded.msg) - 1, -1, -1):
                if loaded.msg[i] is seg:
                    del loaded.msg[i]
                    del loaded.names[i]
        else:
            for r in sorted(reps, reverse=True):
                del field[r]


# --- the codec ---------------------------------------------------------------------------------------


class Hl7v2Codec:
    """``MessageCodec`` for HL7 v2.x ER7 (pipe-delimited) messages."""

    format: EventFormat = EventFormat.HL7V2

    def __init__(self, demographic_events: frozenset[str] = DEFAULT_DEMOGRAPHIC_EVENTS) -> None:
        self.demographic_events = frozenset(e.upper() for e in demographic_events)

    def _message_id(self, loaded: _Loaded) -> str:
        message_id = loaded.codec.unescape(_leaf(loaded.msg[0], 10)).strip()
        if not message_id:
            raise _error("hl7.malformed", "MSH-10 (message control id) is empty")
        return message_id

    def parse(self, raw: bytes) -> ParsedMessage:
        loaded = _load(raw)
        kind, demographics_only = _classify(loaded, self.demographic_events)
        message_id = self._message_id(loaded)
        if not demographics_only and not loaded.segments("PID"):
            raise _error("hl7.missing_pid", f"{kind} message has no PID segment")
        notes: tuple[NoteText, ...] = ()
        if not demographics_only:
            found = _notes(loaded, per_obr=kind == "ORU")
            if not found:
                raise _error("hl7.no_text", f"{kind} message has no text (TX/FT/ST) OBX value")
            notes = tuple(NoteText(f"{message_id}:{i}", n.text) for i, n in enumerate(found))
        patient = _header(loaded)
        return ParsedMessage(
            format=self.format,
            message_id=message_id,
            notes=notes,
            patient=patient,
            patient_ref=patient.patient_id,
            demographics_only=demographics_only,
        )

    def header_values(self, raw: bytes) -> list[tuple[PhiType, str]]:
        loaded = _load(raw)
        out: list[tuple[PhiType, str]] = []
        seen: set[tuple[PhiType, str]] = set()
        for leaf in _phi_leaves(loaded):
            key = (leaf.type, leaf.value)
            if key not in seen:
                seen.add(key)
                out.append(key)
        return out

    def render(self, raw: bytes, texts: Sequence[str], surrogates: HeaderSurrogates) -> bytes:
        loaded = _load(raw)
        kind, demographics_only = _classify(loaded, self.demographic_events)
        notes = [] if demographics_only else _notes(loaded, per_obr=kind == "ORU")
        if len(texts) != len(notes):
            raise ValueError(f"message has {len(notes)} notes, got {len(texts)} texts")
        # Resolve every surrogate before writing anything so a missing one leaves no half-rendered state.
        leaves = list(_phi_leaves(loaded))
        replacements = [surrogates[(leaf.type, leaf.value)] for leaf in leaves]
        for leaf, new in zip(leaves, replacements, strict=True):
            leaf.container[leaf.index] = loaded.codec.escape_text(new)
        unused: list[_Slot] = []
        for note, text in zip(notes, texts, strict=True):
            unused.extend(_write_note(loaded, note, text))
        _remove(loaded, unused)
        return str(loaded.msg).encode(loaded.codec.charset, errors="replace")
