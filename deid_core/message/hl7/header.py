"""The patient header (PID, NK1, clinician fields) and the notes (text OBX) of an HL7 v2 message.

Both are what ``schemas.hl7v2`` computed; the logic moved here unchanged so that the header matcher and
the note ids see the same values whichever codec read the message.

Notes: one per OBR group for ORU (text OBX before the first OBR form their own group), one per message
otherwise; a note's text is the OBX-5 values of its text-typed OBX (TX, FT, ST), each repetition one
line, joined with ``"\\n"``. Groups whose text is blank carry no note. Writing a note back puts its new
text line by line into the OBX-5 repetitions it was read from, each taking as many lines as it held
before; if the line count changed, the last repetition takes all surplus lines and repetitions left
without a line are removed, whole OBX segments included, so that re-reading gives exactly the new text.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

import hl7
from pydantic import ValidationError

from deid_core.message.hl7.kinds import config
from deid_core.message.hl7.load import Codec, Loaded, error, field_at, grid, is_value, leaf
from schemas.patient import Address, Identifier, PatientHeader
from schemas.phi import PhiType

TEXT_VALUE_TYPES = frozenset({"TX", "FT", "ST"})
_DATE = re.compile(r"^(\d{4})(\d{2})(\d{2})")

# Clinician fields whose names the header lists as doctors (XCN: family name in component 2).
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


def identifier_type(rep: list[list[str]], default: PhiType) -> PhiType:
    """The PHI type CX.5 (HL7 table 0203) gives a CX repetition's id."""
    code = rep[4][0].strip().upper() if len(rep) > 4 and rep[4] else ""
    return config().tables["identifier_types"].get(code, default)


def _text(codec: Codec, subs: list[str]) -> str:
    return " ".join(v for v in (codec.unescape(s).strip() for s in subs if is_value(s)) if v)


def _component(codec: Codec, rep: list[list[str]], comp: int, first_only: bool = True) -> str:
    if comp > len(rep):
        return ""
    subs = rep[comp - 1][:1] if first_only else rep[comp - 1]
    return _text(codec, subs)


def _person(codec: Codec, rep: list[list[str]], family: int) -> str:
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


def _phones(codec: Codec, rep: list[list[str]]) -> tuple[str, str]:
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


def patient_header(loaded: Loaded) -> PatientHeader:
    """The header of the message's one PID (``hl7.missing_pid`` / ``hl7.multi_patient`` otherwise)."""
    pids = loaded.segments("PID")
    if not pids:
        raise error("hl7.missing_pid", "message has no PID segment")
    if len(pids) > 1:
        raise error("hl7.multi_patient", f"message carries {len(pids)} PID segments; expected one")
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
        for rep in grid(field_at(pid, n) or ""):
            value = _component(codec, rep, 1)
            if not value:
                continue
            patient_id = patient_id or value
            phi_type = identifier_type(rep, default) if typed else default
            add_id(value, phi_type, _component(codec, rep, 4))
    for n, phi_type in ((19, PhiType.SSN), (20, PhiType.LICENSE)):
        add_id(_component(codec, grid(field_at(pid, n) or "")[0], 1), phi_type, "")
    if not patient_id:
        raise error("hl7.missing_pid", "PID carries no patient identifier in PID-3, PID-2 or PID-4")

    names: list[str] = []
    for n in (5, 9):
        for rep in grid(field_at(pid, n) or ""):
            _add(names, _person(codec, rep, 1))

    address: Address | None = None
    addr = grid(field_at(pid, 11) or "")[0]
    street = [s for s in (_component(codec, addr, 1, first_only=False), _component(codec, addr, 2)) if s]
    city, state, zip_, country = (_component(codec, addr, c) for c in (3, 4, 5, 6))
    if street or city or state or zip_ or country:
        address = Address(
            street=street, city=city or None, state=state or None, zip=zip_ or None, country=country or None
        )

    phones: list[str] = []
    emails: list[str] = []
    for n in (13, 14, 40):
        for rep in grid(field_at(pid, n) or ""):
            phone, email = _phones(codec, rep)
            _add(phones, phone)
            _add(emails, email)

    next_of_kin: list[str] = []
    for rep in grid(field_at(pid, 6) or ""):
        _add(next_of_kin, _person(codec, rep, 1))
    for nk1 in loaded.segments("NK1"):
        for n in (2, 30):
            for rep in grid(field_at(nk1, n) or ""):
                _add(next_of_kin, _person(codec, rep, 1))

    doctors: list[str] = []
    for seg_name, n in _DOCTOR_FIELDS:
        for seg in loaded.segments(seg_name):
            for rep in grid(field_at(seg, n) or ""):
                _add(doctors, _person(codec, rep, 2))

    try:
        return PatientHeader(
            patient_id=patient_id,
            names=names,
            mrn=mrn,
            identifiers=identifiers,
            birth_date=_birth_date(leaf(pid, 7)),
            sex=_component(codec, grid(field_at(pid, 8) or "")[0], 1) or None,
            address=address,
            phones=phones,
            emails=emails,
            next_of_kin=next_of_kin,
            doctors=doctors,
        )
    except ValidationError:
        # pydantic's messages quote the offending value.
        raise error("hl7.malformed", "PID values do not form a valid patient header") from None


# --- notes -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NoteSlot:
    """One OBX-5 repetition (0-based ``rep``) holding note text, and how many lines it held when read."""

    segment: hl7.Segment
    rep: int
    lines: int


@dataclass(frozen=True, slots=True)
class Note:
    text: str
    slots: tuple[NoteSlot, ...]


def message_type(loaded: Loaded) -> tuple[str, str]:
    msh = loaded.msg[0]
    return leaf(msh, 9, 1, 1).strip().upper(), leaf(msh, 9, 1, 2).strip().upper()


def is_text_obx(seg: hl7.Segment) -> bool:
    return len(seg) > 5 and leaf(seg, 2).strip().upper() in TEXT_VALUE_TYPES


def find_notes(loaded: Loaded, per_obr: bool) -> list[Note]:
    groups: list[list[hl7.Segment]] = [[]]
    for seg, name in zip(loaded.msg, loaded.names, strict=True):
        if per_obr and name == "OBR" and groups[-1]:
            groups.append([])
        if name == "OBX" and is_text_obx(seg):
            groups[-1].append(seg)
    notes: list[Note] = []
    for group in groups:
        pieces: list[str] = []
        slots: list[NoteSlot] = []
        for seg in group:
            field = seg[5]
            reps = [field[0]] if len(field) == 1 and isinstance(field[0], str) else list(field)
            for r, rep in enumerate(reps):
                piece = loaded.codec.unescape(str(rep))
                pieces.append(piece)
                slots.append(NoteSlot(seg, r, piece.count("\n") + 1))
        text = "\n".join(pieces)
        if text.strip():
            notes.append(Note(text, tuple(slots)))
    return notes


def write_note(loaded: Loaded, note: Note, text: str) -> list[NoteSlot]:
    """Write ``text`` into the note's slots; return the slots left without a line (to be removed)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    pos = 0
    unused: list[NoteSlot] = []
    for i, slot in enumerate(note.slots):
        if pos >= len(lines):
            unused.append(slot)
            continue
        last = i == len(note.slots) - 1
        chunk = lines[pos:] if last else lines[pos : pos + slot.lines]
        pos += len(chunk)
        slot.segment[5][slot.rep] = loaded.codec.escape_text("\n".join(chunk))
    return unused


def remove_slots(loaded: Loaded, unused: list[NoteSlot]) -> None:
    by_segment: dict[int, list[NoteSlot]] = {}
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
