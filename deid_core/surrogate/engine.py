"""Surrogates: replace each PHI span with a realistic, consistent stand-in ("hiding in plain sight").

Consistency comes from two layers. Every candidate is drawn from a ``random.Random`` seeded with the
HMAC mapping key of ``(patient scope, kind, normalized original)``, so any worker proposes the same
candidate for the same input; the :class:`MappingStore` then keeps the first candidate ever written,
so an upgrade of the generators (new pools, new rules) cannot change a patient's surrogates
mid-stream. Within a patient scope the same real value always gets the same surrogate; another
patient gets an independent one.

Each value is settled under every key of the :class:`KeyRing` (current key plus the previous keys of a
rotation), stored as ``"<key version>:<surrogate>"`` under each (see :mod:`deid_core.surrogate.store`);
candidates are seeded from the current key. Dates are
not stored one by one: each patient scope stores one day offset, and every date is shifted by it.
The patient pseudonym is stored in a global scope together with a reservation entry per pseudonym
(value: a hex digest of the owner's mapping key, no PHI), so two patients never share a pseudonym.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from deid_core.render import render
from deid_core.surrogate import formats
from deid_core.surrogate.ages import age_surrogate
from deid_core.surrogate.dates import generic_date, parse_date
from deid_core.surrogate.keys import HmacKey, KeyRing, mapping_key
from deid_core.surrogate.names import NamePiece, apply_name_case, case_of, name_pools, split_name
from deid_core.surrogate.pools import location_surrogate
from deid_core.surrogate.store import MappingStore
from schemas import DeidentifiedNote, EnrichedNote, PhiType, Span

if TYPE_CHECKING:  # Faker is imported at the first location surrogate: `deid detect` never needs it
    from faker import Faker

logger = logging.getLogger(__name__)

_PSEUDONYM_SCOPE = "global:patient-id"
_PSEUDONYM_RESERVATION_SCOPE = "global:patient-pseudonym-owner"
_PSEUDONYM_TRIES = 64
_LOCATION_TYPES = frozenset(
    {
        PhiType.HOSPITAL, PhiType.ORGANIZATION, PhiType.CITY, PhiType.STREET, PhiType.STATE,
        PhiType.COUNTRY, PhiType.PROFESSION, PhiType.DEPARTMENT, PhiType.ROOM, PhiType.LOCATION_OTHER,
    }
)  # fmt: skip
_SHAPE_TYPES = frozenset(
    {
        PhiType.USERNAME, PhiType.MEDICALRECORD, PhiType.HEALTHPLAN, PhiType.ACCOUNT, PhiType.LICENSE,
        PhiType.VEHICLE, PhiType.DEVICE, PhiType.BIOID, PhiType.IDNUM,
    }
)  # fmt: skip
_SPECIAL_FORMATS: dict[PhiType, Callable[[str, random.Random], str]] = {
    PhiType.PHONE: formats.phone,
    PhiType.FAX: formats.phone,
    PhiType.SSN: formats.ssn,
    PhiType.ZIP: formats.zip_code,
    PhiType.IPADDR: formats.ip_address,
    PhiType.EMAIL: formats.email,
    PhiType.URL: formats.url,
}
_CAPITALS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True, slots=True)
class SurrogateConfig:
    date_shift_min_days: int = 1
    date_shift_max_days: int = 365
    age_cap: int = 90
    age_cap_text: str = "90+"
    locale: str = "en_US"

    def __post_init__(self) -> None:
        if not 1 <= self.date_shift_min_days <= self.date_shift_max_days:
            raise ValueError("need 1 <= date_shift_min_days <= date_shift_max_days")


def patient_scope(note: EnrichedNote) -> str:
    """The consistency scope: the patient when the note says who it is, else the note alone."""
    if note.patient is not None:
        return f"patient:{note.patient.patient_id}"
    return f"note:{note.note_id}"


def _rng(digest: bytes) -> random.Random:
    return random.Random(int.from_bytes(digest, "big"))


class Surrogator:
    """Turns a note's PHI spans into surrogates. Safe to share across tasks of one event loop.

    Several workers (processes) may share one Redis-backed store: the first writer of each mapping
    wins and every other worker reads that value back.
    """

    def __init__(
        self, store: MappingStore, key: HmacKey | KeyRing, config: SurrogateConfig | None = None
    ) -> None:
        self.store = store
        self.keyring = key if isinstance(key, KeyRing) else KeyRing(key)
        self.key = self.keyring.current
        self.config = config or SurrogateConfig()
        self._fake: Faker | None = None

    # -- store plumbing ---------------------------------------------------------------------------------

    async def _settle(self, scope: str, kind: str, value: str, candidate: str) -> str:
        """The stored surrogate of ``(scope, kind, value)``, settled across every key of the ring."""
        return await self.store.settle(scope, self.keyring.mapping_keys(scope, kind, value), candidate)

    def _faker(self) -> Faker:
        # One instance, re-seeded before each draw; no await happens between seeding and drawing.
        if self._fake is None:
            from faker import Faker

            self._fake = Faker(self.config.locale)
        return self._fake

    # -- public API -------------------------------------------------------------------------------------

    async def date_offset_days(self, scope: str) -> int:
        """This scope's date shift: uniform over ±[min, max] days, never 0, the same for every call."""
        digest = mapping_key(self.key, scope, "date-offset", "")
        rng = _rng(digest)
        days = rng.randint(self.config.date_shift_min_days, self.config.date_shift_max_days)
        candidate = days if rng.random() < 0.5 else -days
        return int(await self._settle(scope, "date-offset", "", str(candidate)))

    async def surrogate_for(self, scope: str, type_: PhiType, original: str) -> str:
        if type_ in (PhiType.PATIENT, PhiType.DOCTOR):
            return await self._name(scope, original)
        if type_ is PhiType.DATE:
            return self._date(original, await self.date_offset_days(scope), scope)
        if type_ is PhiType.AGE:
            return age_surrogate(original, self.config.age_cap, self.config.age_cap_text)
        normalized = _normalize(original)
        rng = _rng(mapping_key(self.key, scope, type_.value, normalized))
        if type_ in _LOCATION_TYPES:
            candidate = location_surrogate(type_, original, rng, self._faker())
        elif type_ in _SPECIAL_FORMATS:
            candidate = _SPECIAL_FORMATS[type_](original, rng)
        elif type_ in _SHAPE_TYPES:
            candidate = formats.shape_preserving(original, rng)
        else:  # pragma: no cover - every PhiType is handled above
            raise ValueError(f"no surrogate generator for {type_}")
        return await self._settle(scope, type_.value, normalized, candidate)

    async def pseudonym(self, patient_id: str) -> str:
        """A stable, format-preserving pseudonym for a patient id, unique across patients."""
        digest = mapping_key(self.key, _PSEUDONYM_SCOPE, "patient-id", patient_id)
        owner = hashlib.sha256(digest).hexdigest()[:32]
        rng = _rng(digest)
        candidate = ""
        for attempt in range(_PSEUDONYM_TRIES):
            candidate = formats.shape_preserving(patient_id, rng)
            if attempt >= _PSEUDONYM_TRIES // 2:  # the id's shape is too small a space: widen it
                candidate += "".join(rng.choice("0123456789") for _ in range(6))
            # After a rotation the owner digest (current key) differs from the one an old-key worker
            # stored, so a patient may reserve one extra, unused pseudonym; uniqueness is unaffected.
            if await self._settle(_PSEUDONYM_RESERVATION_SCOPE, "pseudonym", candidate, owner) == owner:
                break
        return await self._settle(_PSEUDONYM_SCOPE, "patient-id", patient_id, candidate)

    async def deidentify(self, note: EnrichedNote, spans: Sequence[Span]) -> DeidentifiedNote:
        """Replace every span (sorted, non-overlapping) with its surrogate; all other text is kept."""
        scope = patient_scope(note)
        text = note.text
        unique = {(s.type, text[s.start : s.end]) for s in spans}
        order = sorted(unique)
        results = await asyncio.gather(*(self.surrogate_for(scope, t, original) for t, original in order))
        surrogate = dict(zip(order, results, strict=True))
        replacements = [(s, surrogate[(s.type, text[s.start : s.end])]) for s in spans]
        pseudonym = await self.pseudonym(note.patient.patient_id) if note.patient is not None else None
        logger.debug("%d spans replaced", len(spans))
        return DeidentifiedNote(
            note_id=note.note_id,
            text=render(text, replacements),
            spans=tuple(spans),
            patient_pseudonym=pseudonym,
        )

    # -- per-type generators ----------------------------------------------------------------------------

    def _date(self, original: str, offset: int, scope: str) -> str:
        parsed = parse_date(original)
        if parsed is not None:
            try:
                return parsed.format(parsed.value + dt.timedelta(days=offset))
            except OverflowError:
                pass
        digest = mapping_key(self.key, scope, "date-generic", _normalize(original))
        return generic_date(original, _rng(digest), offset)

    async def _name(self, scope: str, original: str) -> str:
        pieces = split_name(original, name_pools(self.config.locale))
        parts = await asyncio.gather(*(self._name_piece(scope, p) for p in pieces))
        return "".join(parts)

    async def _name_piece(self, scope: str, piece: NamePiece) -> str:
        if piece.role == "keep":
            return piece.text
        if piece.role == "digits":
            digest = mapping_key(self.key, scope, "name-digits", piece.text)
            return await self._settle(
                scope, "name-digits", piece.text, formats.shape_preserving(piece.text, _rng(digest))
            )
        if piece.role == "initial":
            digest = mapping_key(self.key, scope, "name-initial", piece.text.upper())
            letters = [c for c in _CAPITALS if c != piece.text.upper()]
            new = await self._settle(scope, "name-initial", piece.text.upper(), _rng(digest).choice(letters))
            return new.lower() if piece.text.islower() else new
        pools = name_pools(self.config.locale)
        pool = pools.first_pool(piece.gender) if piece.role == "first" else pools.last
        digest = mapping_key(self.key, scope, f"name-{piece.role}", piece.normalized)
        rng = _rng(digest)
        candidate = rng.choice(pool)
        while candidate.lower() == piece.normalized:
            candidate = rng.choice(pool)
        new = await self._settle(scope, f"name-{piece.role}", piece.normalized, candidate)
        return apply_name_case(new, case_of(piece.text))


def _normalize(value: str) -> str:
    return " ".join(value.split()).lower()
