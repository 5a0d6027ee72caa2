"""The one message path: raw bytes -> loaded once -> enrich -> detect (one batch) -> decide -> render.

The worker, the CLI and the library all go through ``MessagePipeline``; formats differ only in their
loader. Invariants:
- every leaf of every message is decided exactly once under the policy before rendering (the loaders
  refuse to render otherwise), so a value no rule names cannot leave as received;
- all free text of a batch (notes, text fields, decoded attachments) is detected in one
  ``DetectionPipeline.detect_batch`` call, so the tagger sees one batch;
- one scope per message: every surrogate and the one date offset come from the patient's scope;
- nothing here logs or raises with values: note and message references are keyed hashes.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field

from deid_core.message.actions import MessageContext, reference_date, structured_value
from deid_core.message.policy import PolicyResolver
from deid_core.message.text import replace_spans
from deid_core.pipeline import DetectionPipeline
from deid_core.surrogate.engine import Surrogator
from deid_core.surrogate.keys import HmacKey, mapping_key
from schemas import DeidentifiedNote, EnrichedNote, PatientHeader, Span
from schemas.events import EventFormat, EventParseError
from schemas.message import Kind, Leaf, LoadedMessage, MessageLoader
from schemas.policy import Action, Policy

_SCANNED_KINDS = frozenset({Kind.TEXT, Kind.CODE, Kind.UNKNOWN, Kind.ATTACHMENT, Kind.NAME, Kind.LOCATION, Kind.ADDRESS})


def _scanned(leaf: Leaf, action: Action) -> bool:
    """Whether a value's text goes through detection (a binary payload or blank text does not)."""
    return action is Action.SCAN and not leaf.binary and leaf.kind in _SCANNED_KINDS and bool(leaf.value.strip())


def sniff_format(raw: bytes) -> EventFormat | None:
    head = raw.lstrip()[:512]
    if head.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte order mark before MSH or {
        head = head[3:].lstrip()
    if head.startswith(b"MSH"):
        return EventFormat.HL7V2
    if head.startswith(b"{"):
        return EventFormat.FHIR if b'"resourceType"' in raw[:4096] else EventFormat.JSON
    return None


@dataclass(frozen=True, slots=True)
class MessageResult:
    output: bytes
    notes: tuple[DeidentifiedNote, ...]
    """The message's notes, de-identified (spans: what was replaced, offsets into the original)."""
    ref: str
    """A keyed hash of the message id: what logs, keys and note ids use instead of the id."""
    patient_pseudonym: str | None
    actions: Counter[str] = field(default_factory=Counter)
    """How many structured values each action was applied to (for the audit record)."""


@dataclass(slots=True)
class _Plan:
    message: LoadedMessage
    header: PatientHeader | None
    ref: str
    decisions: list[tuple[Leaf, Action]]
    text_slots: list[int]
    """For each entry of the batch's texts that belongs to this message: index into ``_texts``."""


class MessagePipeline:
    """De-identifies whole messages under one policy. Safe to share across tasks of one event loop."""

    def __init__(
        self,
        detection: DetectionPipeline,
        surrogator: Surrogator,
        policy: Policy,
        loaders: Sequence[MessageLoader],
        pseudonym_key: HmacKey | None = None,
    ) -> None:
        self.detection = detection
        self.surrogator = surrogator
        self.policy = policy
        self.resolver = PolicyResolver(policy)
        self.loaders = {loader.format: loader for loader in loaders}
        # Output keys, refs and pseudonyms come from one stable key (the oldest of a rotating ring).
        self.pseudonym_key = pseudonym_key or surrogator.key

    # -- parse --------------------------------------------------------------------------------------

    def load(self, raw: bytes, fmt: EventFormat | None = None) -> LoadedMessage:
        fmt = fmt or sniff_format(raw)
        loader = self.loaders.get(fmt) if fmt else None
        if loader is None:
            raise EventParseError("format.unknown", "not HL7 v2 (MSH), FHIR JSON or a JSON envelope")
        return loader.load(raw)

    def ref(self, message: LoadedMessage) -> str:
        return self.ref_for(message.format, message.message_id)

    def ref_for(self, fmt: EventFormat, message_id: str) -> str:
        """A keyed hash of the message id: output keys, note ids and logs use it instead of the id."""
        return mapping_key(self.pseudonym_key, "output", fmt.value, message_id).hex()[:32]

    # -- de-identify --------------------------------------------------------------------------------

    async def deidentify(
        self, items: Sequence[tuple[LoadedMessage, PatientHeader | None]]
    ) -> list[MessageResult | EventParseError]:
        """One result per message, or the ``EventParseError`` its rendering raised (to dead-letter).

        Dependency failures (tagger, store) propagate: nothing of the batch may be used then.
        """
        texts: list[EnrichedNote] = []
        plans: list[_Plan | EventParseError] = []
        for message, header in items:
            ref = self.ref(message)
            try:
                decisions = [(leaf, self.resolver.action(leaf)) for leaf in message.leaves()]
            except EventParseError as exc:  # a loader that reads its fields lazily may refuse them here
                plans.append(exc)
                continue
            slots = []
            for i, note in enumerate(message.notes):
                slots.append(len(texts))
                texts.append(EnrichedNote(f"{ref[:16]}:{i}", note.text, header))
            seen: dict[str, int] = {}  # a field text repeated in one message is detected once
            for leaf, action in decisions:
                if _scanned(leaf, action):
                    if leaf.value not in seen:
                        seen[leaf.value] = len(texts)
                        texts.append(EnrichedNote(f"{ref[:16]}:f{len(slots)}", leaf.value, header))
                    slots.append(seen[leaf.value])
            plans.append(_Plan(message, header, ref, decisions, slots))
        spans = await self.detection.detect_batch(texts)
        # The messages of a batch are finished side by side: their store calls share round trips.
        return list(await asyncio.gather(*(
            _refused(plan) if isinstance(plan, EventParseError)
            else self._finish_or_refuse(plan, [(texts[i], spans[i]) for i in plan.text_slots])
            for plan in plans
        )))  # fmt: skip

    async def _finish_or_refuse(
        self, plan: _Plan, detected: list[tuple[EnrichedNote, list[Span]]]
    ) -> MessageResult | EventParseError:
        try:
            return await self._finish(plan, detected)
        except EventParseError as exc:
            return exc

    async def _finish(self, plan: _Plan, detected: list[tuple[EnrichedNote, list[Span]]]) -> MessageResult:
        message, header = plan.message, plan.header
        scope = f"patient:{header.patient_id}" if header is not None else f"note:{plan.ref}"
        # The store calls of a message run side by side (the store sends those of one moment together).
        offset_days, pseudonym = await asyncio.gather(
            self.surrogator.date_offset_days(scope),
            self.surrogator.pseudonym(header.patient_id) if header is not None else _none(),
        )
        ctx = MessageContext(
            scope=scope,
            patient_id=header.patient_id if header is not None else None,
            offset_days=offset_days,
            reference_date=reference_date([leaf for leaf, _ in plan.decisions]),
        )
        # A text repeated in the message shares one slot of the batch: replace its spans once.
        first: dict[int, int] = {}
        for position, slot in enumerate(plan.text_slots):
            first.setdefault(slot, position)
        done = await asyncio.gather(
            *(replace_spans(detected[p][0].text, detected[p][1], self.policy, self.surrogator, scope) for p in first.values())
        )
        by_slot = dict(zip(first, done, strict=True))
        replaced = [by_slot[i] for i in plan.text_slots]
        note_count = len(message.notes)
        notes = tuple(
            DeidentifiedNote(detected[i][0].note_id, replaced[i][0], tuple(replaced[i][1]), None) for i in range(note_count)
        )
        scanned = iter(text for text, _ in replaced[note_count:])
        counts: Counter[str] = Counter()
        # The same value under the same action and type comes out the same within a message: computed once.
        keys: list[tuple[object, ...]] = []
        pending: dict[tuple[object, ...], Awaitable[str | None]] = {}
        for leaf, action in plan.decisions:
            text = next(scanned) if _scanned(leaf, action) else leaf.value
            key = (action, leaf.kind, leaf.phi_type, leaf.datatype, leaf.role, leaf.binary, leaf.value, text)
            if key not in pending:
                pending[key] = structured_value(leaf, action, ctx, self.policy, self.surrogator, self.pseudonym_key, text)
            keys.append(key)
            counts[action.value] += 1
        memo = dict(zip(pending, await asyncio.gather(*pending.values()), strict=True))
        values = [memo[key] for key in keys]
        # Decide only after every value is known: a store failure above leaves the message untouched.
        for (leaf, _), value in zip(plan.decisions, values, strict=True):
            leaf.decide(value)
        output = message.render([n.text for n in notes])
        notes = tuple(DeidentifiedNote(n.note_id, n.text, n.spans, pseudonym) for n in notes)
        return MessageResult(output, notes, plan.ref, pseudonym, counts)


async def _none() -> None:
    return None


async def _refused(error: EventParseError) -> EventParseError:
    return error
