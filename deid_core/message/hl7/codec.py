"""HL7 v2 loader: a message parsed once into typed leaves (every value), notes and the patient header.

Fail closed: every non-empty value of every field of every segment is a ``Leaf`` (MSH-1 and MSH-2 are
structure; note text is the notes), typed by the v2.5.1 tables and ``datatypes.yaml`` (``kinds``) and,
where v2.5.1 does not define a position, by the newest tables hl7apy ships (PRT, MSH-22..25, PID-40,
NTE-5..8, XTN.13-18, ...: ``tables.fallback_fields``). A value neither defines is UNKNOWN and still
decided by the policy, and ``render`` refuses to write while any leaf is undecided. HL7's explicit null
``""`` and blank values carry nothing and are not leaves.

Paths are ``SEG-F.C.S`` (1-based, always down to the subcomponent: ``PID-5.1.1``, ``PID-7.1.1``); the
repetition is not part of the path. ``value`` is unescaped; a leaf's setter writes the new value escaped
into the parsed message (``None`` empties it), so a message whose leaves and notes are all kept renders
byte-identical to its input after terminator normalisation (segments end with ``\\r``).

OBX-5 is typed by the same segment's OBX-2; text OBX (TX, FT, ST) values are the notes (see
``header``), except in demographics-only messages, which carry no notes: there they are TEXT leaves.
ED payloads (ED.5) whose ED.2/ED.3 say plain text and whose ED.4 is ``A`` or ``Base64`` are decoded
into ``value`` (the setter encodes the same way); any other payload is a ``binary`` leaf.

Segments must have a valid id (three letters or digits, the first a letter), or the message is
``hl7.malformed``: a stray line would otherwise pass through outside every leaf.

Message types: ADT events in ``demographic_events`` are demographics-only; every other type is
de-identified whole. Error codes: those of ``load`` plus ``hl7.missing_pid`` (a message with notes, or a
demographics-only one, without PID; a PID without PID-3/2/4 id), ``hl7.multi_patient`` (several PID),
``hl7.render_invalid`` (the output does not re-parse to the same segments).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from deid_core.message.hl7 import tables
from deid_core.message.hl7.header import (
    Note,
    find_notes,
    message_type,
    patient_header,
    remove_slots,
    write_note,
)
from deid_core.message.hl7.kinds import (
    UNKNOWN,
    ValueSpec,
    config,
    field_value_spec,
    refine_phi,
    value_type_spec,
)
from deid_core.message.hl7.load import Codec, Loaded, error, grid, is_value, leaf, load, slots
from schemas.events import EventFormat, EventParseError, NoteText
from schemas.message import Leaf, LeafSpec
from schemas.patient import PatientHeader

DEFAULT_DEMOGRAPHIC_EVENTS = frozenset({"A01", "A04", "A08", "A28", "A31"})
_OBX_VALUE = 5
_OBX_VALUE_TYPE = 2
_SEGMENT_ID = re.compile(r"[A-Z][A-Z0-9]{2}")


def _cell(cells: list[list[list[str]]], rep: int, pos: tuple[int, int]) -> str:
    try:
        return cells[rep - 1][pos[0] - 1][pos[1] - 1]
    except IndexError:
        return ""


def _setter(
    container: list[object], index: int, encode: Callable[[str], str]
) -> Callable[[str | None], None]:
    def set_value(new: str | None) -> None:
        container[index] = "" if new is None else encode(new)

    return set_value


def _attachment(
    codec: Codec, spec: ValueSpec, cells: list[list[list[str]]], rep: int, raw: str
) -> tuple[str, bool, Callable[[str], str]]:
    """(value, binary, encoder) of an ED payload: plain text decoded, anything else left as sent."""
    assert spec.attachment is not None
    att = config().attachments
    text_like = (
        codec.unescape(_cell(cells, rep, spec.attachment.type)).strip().upper() in att.text_types
        and codec.unescape(_cell(cells, rep, spec.attachment.subtype)).strip().upper() in att.text_subtypes
    )
    encoding = codec.unescape(_cell(cells, rep, spec.attachment.encoding)).strip().upper()
    if text_like and encoding in att.plain_encodings:
        return codec.unescape(raw), False, codec.escape_text
    if text_like and encoding in att.base64_encodings:
        try:
            text = base64.b64decode("".join(codec.unescape(raw).split()), validate=True).decode("utf-8")
        except (binascii.Error, ValueError):
            text = None  # not base64, or not UTF-8 text after all: a payload nobody can read
        if text is not None:
            return (
                text,
                False,
                lambda new: codec.escape_text(base64.b64encode(new.encode("utf-8")).decode("ascii")),
            )
    return codec.unescape(raw), True, codec.escape_text


def _build_leaves(loaded: Loaded, note_slots: set[tuple[int, int]]) -> list[Leaf]:
    codec = loaded.codec
    out: list[Leaf] = []
    for seg, name in zip(loaded.msg, loaded.names, strict=True):
        value_type = leaf(seg, _OBX_VALUE_TYPE).strip().upper() if name == "OBX" else ""
        first = 3 if name == "MSH" else 1  # MSH-1, MSH-2: the delimiters
        for f, fld in enumerate(seg):
            if f < first:
                continue
            cells: list[list[list[str]]] | None = None
            for slot in slots(fld):
                raw = slot.container[slot.index]
                if not isinstance(raw, str) or not is_value(raw):
                    continue
                if name == "OBX" and f == _OBX_VALUE:
                    if (id(seg), slot.rep - 1) in note_slots:
                        continue
                    spec = (
                        value_type_spec(name, f, value_type, slot.comp, slot.sub) if value_type else UNKNOWN
                    )
                else:
                    spec = field_value_spec(name, f, slot.comp, slot.sub)
                phi_type = spec.phi_type
                value, binary, encode = codec.unescape(raw), False, codec.escape_text
                if spec.phi_ref is not None or spec.attachment is not None:
                    cells = cells if cells is not None else grid(fld)
                    if spec.phi_ref is not None:
                        phi_type = refine_phi(spec, codec.unescape(_cell(cells, slot.rep, spec.phi_ref)))
                    if spec.attachment is not None:
                        value, binary, encode = _attachment(codec, spec, cells, slot.rep, raw)
                out.append(
                    Leaf(
                        path=f"{name}-{f}.{slot.comp}.{slot.sub}",
                        kind=spec.kind,
                        value=value,
                        phi_type=phi_type,
                        datatype=spec.datatype,
                        types=spec.types,
                        role=spec.role,
                        binary=binary,
                        setter=_setter(slot.container, slot.index, encode),
                    )
                )
    return out


@dataclass(slots=True)
class Hl7Message:
    """A loaded HL7 v2 message (``LoadedMessage``). ``render`` may be called once."""

    loaded: Loaded
    message_id: str
    notes: tuple[NoteText, ...]
    patient: PatientHeader | None
    demographics_only: bool
    _notes: list[Note]
    _note_slots: set[tuple[int, int]] = field(default_factory=set)
    _leaves: list[Leaf] | None = None
    _rendered: bool = False
    format: EventFormat = EventFormat.HL7V2

    @property
    def patient_ref(self) -> str | None:
        return self.patient.patient_id if self.patient is not None else None

    def leaves(self) -> list[Leaf]:
        # Built on first use: a demographics event that only feeds the table never needs them.
        if self._leaves is None:
            self._leaves = _build_leaves(self.loaded, self._note_slots)
        return self._leaves

    def render(self, note_texts: Sequence[str]) -> bytes:
        undecided = sum(1 for leaf_ in self.leaves() if not leaf_.decided)
        if undecided:
            raise RuntimeError(f"{undecided} values were not decided by the policy")
        if len(note_texts) != len(self._notes):
            raise ValueError(f"message has {len(self._notes)} notes, got {len(note_texts)} texts")
        if self._rendered:
            raise RuntimeError("message was already rendered")
        self._rendered = True
        unused = []
        for note, text in zip(self._notes, note_texts, strict=True):
            if text != note.text:  # an unchanged note keeps its bytes (escapes, highlighting)
                unused.extend(write_note(self.loaded, note, text))
        remove_slots(self.loaded, unused)
        out = str(self.loaded.msg).encode(self.loaded.codec.charset, errors="replace")
        _check_rendered(out, self.loaded.names)
        return out


def _check_rendered(out: bytes, names: list[str]) -> None:
    # Setters escape every delimiter, so this only fails on a bug; it is what keeps a bug from shipping
    # a message whose values spilled into other fields or segments.
    try:
        again = load(out)
    except EventParseError:
        raise error("hl7.render_invalid", "rendered message does not parse") from None
    if again.names != names:
        raise error("hl7.render_invalid", "rendered message does not have the segments written")


class Hl7Loader:
    """``MessageLoader`` for HL7 v2.x ER7 (pipe-delimited) messages."""

    format: EventFormat = EventFormat.HL7V2

    def __init__(self, demographic_events: frozenset[str] = DEFAULT_DEMOGRAPHIC_EVENTS) -> None:
        self.demographic_events = frozenset(e.upper() for e in demographic_events)

    def load(self, raw: bytes) -> Hl7Message:
        loaded = load(raw)
        for i, name in enumerate(loaded.names):
            # A line that is no segment (a stray line break inside a value) would pass through whole,
            # outside every field and so outside every leaf.
            if not _SEGMENT_ID.fullmatch(name):
                raise error("hl7.malformed", f"segment {i + 1} has no valid segment id")
        kind, event = message_type(loaded)
        if not kind:
            raise error("hl7.malformed", "MSH-9 (message type) is empty")
        message_id = loaded.codec.unescape(leaf(loaded.msg[0], 10)).strip()
        if not message_id:
            raise error("hl7.malformed", "MSH-10 (message control id) is empty")
        demographics_only = kind == "ADT" and event in self.demographic_events
        pids = loaded.segments("PID")
        if len(pids) > 1:
            raise error("hl7.multi_patient", f"message carries {len(pids)} PID segments; expected one")
        found = [] if demographics_only else find_notes(loaded, per_obr=kind == "ORU")
        if not pids and (found or demographics_only):
            label = "demographic" if demographics_only else "note-carrying"
            raise error("hl7.missing_pid", f"{label} message has no PID segment")
        patient = patient_header(loaded) if pids else None
        note_slots = {(id(slot.segment), slot.rep) for note in found for slot in note.slots}
        message = Hl7Message(
            loaded=loaded,
            message_id=message_id,
            notes=tuple(NoteText(f"{message_id}:{i}", n.text) for i, n in enumerate(found)),
            patient=patient,
            demographics_only=demographics_only,
            _notes=found,
            _note_slots=note_slots,
        )
        return message

    @staticmethod
    def describe() -> list[LeafSpec]:
        """The leaf specs of every field of every v2.5.1 segment (``fallback_field_specs``: the rest)."""
        return [spec for segment in segment_names() for spec in field_specs(segment)]


# --- what the tables say, before any message ---------------------------------------------------------


def segment_names() -> tuple[str, ...]:
    """Every segment id HL7 v2.5.1 defines."""
    return tables.segment_names()


def _positions(node: tables.TypeNode) -> list[tuple[int, int]]:
    if not node.children:
        return [(1, 1)]
    out: list[tuple[int, int]] = []
    for c, comp in enumerate(node.children, 1):
        out.extend((c, s) for s in range(1, max(len(comp.children), 1) + 1))
    return out


def field_specs(segment: str) -> list[LeafSpec]:
    """The leaf specs (down to subcomponents) of every field of ``segment`` as the tables define it.

    Empty for a segment the tables do not define. A 'varies' field (OBX-5) has one UNKNOWN spec: its
    kinds depend on the value type a message gives it.
    """
    fields = tables.segment_fields(segment)
    if fields is None:
        return []
    specs: list[LeafSpec] = []
    for f, node in enumerate(fields, 1):
        if segment == "MSH" and f < 3:
            continue
        for c, s in _positions(node):
            v = field_value_spec(segment, f, c, s)
            specs.append(LeafSpec(f"{segment}-{f}.{c}.{s}", v.kind, v.phi_type, v.datatype, v.types, v.role))
    return specs


def fallback_segment_names() -> tuple[str, ...]:
    """The segment ids only the newer tables define (PRT, ARV, ...): ``segment_names`` lists v2.5.1's."""
    return tables.fallback_segment_names()


def fallback_field_specs(segment: str) -> list[LeafSpec]:
    """The leaf specs of the fields of ``segment`` that only the newer tables define (MSH-22..25,
    PID-40, every field of PRT, ...), down to subcomponents; empty if there are none."""
    fields = tables.fallback_fields(segment)
    specs: list[LeafSpec] = []
    for f, found in enumerate(fields or (), 1):
        if found is None or not found.newer:
            continue
        for c, s in _positions(found.node):
            v = field_value_spec(segment, f, c, s)
            specs.append(LeafSpec(f"{segment}-{f}.{c}.{s}", v.kind, v.phi_type, v.datatype, v.types, v.role))
    return specs


def value_type_specs(value_type: str) -> list[LeafSpec]:
    """The leaf specs of OBX-5 under OBX-2 ``value_type`` (empty if no table knows it)."""
    node = tables.value_type_node(value_type)
    if node is None:
        return []
    out = []
    for c, s in _positions(node):
        v = value_type_spec("OBX", _OBX_VALUE, value_type, c, s)
        out.append(LeafSpec(f"OBX-5.{c}.{s}", v.kind, v.phi_type, v.datatype, v.types, v.role))
    return out


__all__ = [
    "DEFAULT_DEMOGRAPHIC_EVENTS",
    "Hl7Loader",
    "Hl7Message",
    "fallback_field_specs",
    "fallback_segment_names",
    "field_specs",
    "segment_names",
    "value_type_specs",
]
