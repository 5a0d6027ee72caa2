"""Reading HL7 v2 ER7 bytes: charset, terminators, delimiters, python-hl7 parse, escapes, raw values.

Moved from ``schemas.hl7v2`` unchanged in behaviour and error codes; the codec builds on it.

Charset policy: the bytes are decoded as UTF-8 (a BOM is dropped). If that fails, MSH-18 is read from a
lossless latin-1 view and, if it names a single-byte character set this module knows (``8859/n``,
``CP1252``), the message is decoded with it. Anything else is refused with ``hl7.decode``: guessing
latin-1 would silently garble non-ASCII names and the header matcher would then miss them in the notes.

Terminators: ``\\r\\n`` and ``\\n`` become ``\\r``, blank lines and MLLP framing bytes go, before
python-hl7 (``hl7.parse``) splits segments, fields, repetitions and components. Escape sequences are
decoded and encoded here (see ``_Codec.unescape`` for why not by python-hl7).

Error codes: ``hl7.not_hl7`` (no leading MSH), ``hl7.decode`` (charset policy above), ``hl7.malformed``
(bad delimiters, batches, parser failure). Messages never quote the input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import hl7

from schemas.events import EventParseError

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


def error(code: str, message: str) -> EventParseError:
    return EventParseError(code, message)


# --- separators and escapes ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Codec:
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
class Loaded:
    msg: hl7.Message
    codec: Codec
    names: list[str]
    """Segment ids in message order, read once: hl7 containers make every index lookup a Python call."""

    def segments(self, name: str) -> list[hl7.Segment]:
        return [seg for seg, n in zip(self.msg, self.names, strict=True) if n == name]


def normalise(text: str) -> str:
    text = text.lstrip("\ufeff").strip().strip(_MLLP_FRAMING).strip()
    return _TERMINATORS.sub("\r", text)


def _decode(raw: bytes) -> tuple[str, str]:
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    # latin-1 maps every byte, so this view is only used to read MSH-18 before choosing the real charset.
    view = normalise(raw.decode("latin-1"))
    hint = ""
    if view.startswith("MSH") and len(view) > 8:
        try:
            hint = leaf(_parse_text(view)[0], 18).strip().upper()
        except EventParseError:
            hint = ""
    charset = _CHARSETS.get(hint)
    if charset is None:
        raise error("hl7.decode", "message is not UTF-8 and MSH-18 names no supported single-byte charset")
    try:
        return raw.decode(charset), charset
    except UnicodeDecodeError:
        raise error("hl7.decode", f"message is not valid in its declared charset {hint}") from None


def _parse_text(text: str) -> hl7.Message:
    if not text.startswith("MSH"):
        raise error("hl7.not_hl7", "message does not start with an MSH segment")
    if len(text) < 8:
        raise error("hl7.malformed", "MSH segment too short")
    field_sep = text[3]
    end = text.find(field_sep, 4)
    encoding = text[4:end] if end > 0 else ""
    delimiters = field_sep + encoding
    if (
        len(encoding) not in (4, 5)
        or len(set(delimiters)) != len(delimiters)
        or any(c.isalnum() or c.isspace() for c in delimiters)
    ):
        raise error("hl7.malformed", "MSH-1/MSH-2 do not define valid delimiters")
    try:
        msg = hl7.parse(text)
    except Exception:  # noqa: BLE001 - third-party parser on untrusted input; its messages may quote data
        raise error("hl7.malformed", "hl7 parser rejected the message") from None
    if sum(1 for seg in msg if name(seg) == "MSH") != 1:
        raise error("hl7.malformed", "expected exactly one MSH segment (batches are not supported)")
    return msg


def load(raw: bytes) -> Loaded:
    if not isinstance(raw, bytes | bytearray | memoryview):
        raise error("hl7.not_hl7", f"expected bytes, got {type(raw).__name__}")
    text, charset = _decode(bytes(raw))
    msg = _parse_text(normalise(text))
    seps = msg.separators  # "\r", field, repetition, component, subcomponent
    codec = Codec(seps[1], seps[2], seps[3], seps[4], msg.esc, charset)
    return Loaded(msg, codec, [name(seg) for seg in msg])


# --- reading values ----------------------------------------------------------------------------------


def name(seg: hl7.Segment) -> str:
    if not seg or not seg[0]:
        return ""
    head = seg[0][0]
    return head if isinstance(head, str) else str(head)


def grid(field: object) -> list[list[list[str]]]:
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


def field_at(seg: hl7.Segment, n: int) -> object | None:
    return seg[n] if 0 < n < len(seg) else None


def leaf(seg: hl7.Segment, n: int, rep: int = 1, comp: int = 1, sub: int = 1) -> str:
    """Raw value at ``seg-n.rep.comp.sub`` (1-based), '' when absent."""
    field = field_at(seg, n)
    if field is None:
        return ""
    cells = grid(field)
    try:
        return cells[rep - 1][comp - 1][sub - 1]
    except IndexError:
        return ""


def is_value(raw: str) -> bool:
    # '""' is HL7's explicit null ("delete this value"), not data.
    return bool(raw.strip()) and raw != '""'


@dataclass(frozen=True, slots=True)
class Slot:
    """Where one raw leaf string sits in the parsed message, so it can be read and replaced in place."""

    rep: int
    comp: int
    sub: int
    container: list[object]
    index: int


def slots(field: object) -> Iterator[Slot]:
    """Every leaf string of a field (1-based repetition, component, subcomponent) with its container.

    A field without any delimiter is a ``Field`` holding one plain string; otherwise it holds
    repetitions whose components are plain strings or lists of subcomponent strings.
    """
    items: list[object] = field  # type: ignore[assignment]
    if len(items) == 1 and isinstance(items[0], str):
        yield Slot(1, 1, 1, items, 0)
        return
    for r, rep in enumerate(items, 1):
        if isinstance(rep, str):  # not produced by python-hl7 today; read it rather than skip it
            yield Slot(r, 1, 1, items, r - 1)
            continue
        for c, comp in enumerate(rep, 1):  # type: ignore[arg-type, var-annotated]
            if isinstance(comp, str):
                yield Slot(r, c, 1, rep, c - 1)  # type: ignore[arg-type]
            else:
                for s in range(len(comp)):
                    yield Slot(r, c, s + 1, comp, s)
