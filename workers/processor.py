"""The per-batch work of a streaming worker, independent of Kafka: parse -> enrich -> detect -> merge ->
surrogate -> render -> output records. The faust agent (workers/app.py) only moves bytes in and out.

Failure policy (fail closed):
- a message that cannot be parsed or rendered becomes a dead-letter record (input bytes kept, an error
  code and a PHI-free message in headers); the batch goes on;
- a message whose processing raises anything else (a bug, a parser edge case) is dead-lettered on its own
  with code ``internal-error`` and the exception's type only: a poison message must never block its
  partition. After such a failure in the batch-wide detection step, the batch is redone one message
  at a time so that only the culprit is dead-lettered;
- an unavailable dependency (tagger, mapping store) raises ``DependencyUnavailable`` for the whole batch:
  nothing of it is returned, the caller retries the batch later, and since output keys are stable a
  retried or redelivered message yields the same records.

Size bounds (hostile input): an input, a note text or an output record value over ``max_message_bytes``
is dead-lettered as ``too-large`` (so no output can exceed what the producer may send, and a giant note
cannot stall the tagger); a dead letter's payload is cut to ``dead_letter_max_bytes`` with headers giving
the original size and SHA-256, so the dead-letter record itself always fits too.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from deid_core.enrich import merge_headers
from deid_core.message.path import MessagePipeline, MessageResult, sniff_format
from deid_core.surrogate.store import StoreUnavailable
from deid_core.tagger.base import TaggerUnavailable
from schemas import PatientHeader
from schemas.events import EventFormat, EventParseError
from schemas.message import LoadedMessage
from workers.health import STORE, TAGGER
from workers.lake import LakeRow
from workers.settings import TopicNames  # re-exported: topic names are set in the settings only

__all__ = [
    "DependencyUnavailable", "InMemoryDemographics", "InputEvent", "NoteProcessor", "OutputRecord", "TopicNames",
    "sniff_format",
]  # fmt: skip

log = logging.getLogger(__name__)


class DependencyUnavailable(RuntimeError):
    """A service needed for correct output is down; retry the batch, publish nothing.

    ``dependency`` names it for health reporting (``TAGGER`` or ``STORE`` of :mod:`workers.health`); the message names the
    service and the error type, never data.
    """

    def __init__(self, dependency: str, message: str) -> None:
        super().__init__(message)
        self.dependency = dependency


# Below Kafka's default 1 MB message and producer request size, leaving room for key and headers.
DEFAULT_MAX_MESSAGE_BYTES = 1_000_000
DEFAULT_DEAD_LETTER_MAX_BYTES = 512 * 1024

# Dead-letter codes the processor itself emits (codecs add their own ``hl7.*``, ``fhir.*``, ``json.*``).
CODE_FORMAT_UNKNOWN = "format.unknown"
CODE_TOO_LARGE = "too-large"
CODE_INTERNAL = "internal-error"
CODE_MISSING_SURROGATE = "render.missing_surrogate"


class DemographicsTable(Protocol):
    def get(self, patient_id: str) -> PatientHeader | None: ...

    def put(self, header: PatientHeader) -> None: ...


class InMemoryDemographics:
    def __init__(self) -> None:
        self._rows: dict[str, PatientHeader] = {}

    def get(self, patient_id: str) -> PatientHeader | None:
        return self._rows.get(patient_id)

    def put(self, header: PatientHeader) -> None:
        self._rows[header.patient_id] = merge_headers(header, self._rows.get(header.patient_id)) or header


@contextmanager
def dependency_errors() -> Iterator[None]:
    """Turn the failures of services we depend on into ``DependencyUnavailable`` (retry, publish nothing)."""
    try:
        yield
    except TaggerUnavailable as exc:
        raise DependencyUnavailable(TAGGER, f"tagger: {exc}") from None
    except StoreUnavailable as exc:
        raise DependencyUnavailable(STORE, f"mapping store: {exc}") from None


@dataclass(frozen=True, slots=True)
class InputEvent:
    value: bytes
    topic: str = ""
    partition: int = 0
    offset: int = 0


@dataclass(frozen=True, slots=True)
class OutputRecord:
    topic: str
    key: bytes
    value: bytes
    headers: tuple[tuple[str, bytes], ...] = ()


@dataclass
class BatchStats:
    notes: int = 0
    messages: int = 0
    demographics: int = 0
    dead_letters: int = 0
    phi_by_type: Counter[str] = field(default_factory=Counter)
    lake_rows: list[LakeRow] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Work:
    event: InputEvent
    message: LoadedMessage
    header: PatientHeader | None


class NoteProcessor:
    def __init__(
        self,
        pipeline: MessagePipeline,
        table: DemographicsTable,
        topics: TopicNames | None = None,
        model_version: str = "none",
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        dead_letter_max_bytes: int = DEFAULT_DEAD_LETTER_MAX_BYTES,
    ) -> None:
        if max_message_bytes < 1 or dead_letter_max_bytes < 0:
            raise ValueError("max_message_bytes must be positive and dead_letter_max_bytes not negative")
        self.max_message_bytes = max_message_bytes
        self.dead_letter_max_bytes = dead_letter_max_bytes
        # Output keys must not change while a key rotation rolls out, or a message redelivered to a
        # worker on the other side of it would be published under a second key: the composition root
        # gives the pipeline the oldest key of the ring for keys and pseudonyms.
        self.pipeline = pipeline
        self.table = table
        self.topics = topics if topics is not None else TopicNames()  # the settings' defaults
        self.model_version = model_version

    def output_key(self, fmt: EventFormat, message_id: str) -> bytes:
        # Keyed hash: stable across workers and redeliveries, reveals nothing about the message id.
        return self.pipeline.ref_for(fmt, message_id).encode()

    def dead_letter(self, event: InputEvent, code: str, message: str) -> OutputRecord:
        source = f"{event.topic}/{event.partition}/{event.offset}".encode()
        headers = [
            ("deid-error-code", code.encode()),
            ("deid-error-message", message.encode("utf-8", errors="replace")),
            ("deid-source", source),
        ]
        value = event.value
        if len(value) > self.dead_letter_max_bytes:
            # The record must itself be publishable, or the dead letter would be retried forever; the
            # size and hash still identify the original for whoever fetches it from the source offset.
            headers += [
                ("deid-truncated", b"true"),
                ("deid-original-size", str(len(value)).encode()),
                ("deid-original-sha256", hashlib.sha256(value).hexdigest().encode()),
            ]
            value = value[: self.dead_letter_max_bytes]
        return OutputRecord(self.topics.dead_letter, source, value, tuple(headers))

    def _internal_error(self, event: InputEvent, exc: BaseException) -> OutputRecord:
        # The type only: exception messages may quote the input.
        log.error("message %s/%d/%d failed: %s", event.topic, event.partition, event.offset, type(exc).__name__)
        return self.dead_letter(event, CODE_INTERNAL, f"processing raised {type(exc).__name__}")

    def parse_demographics(self, raw: bytes) -> PatientHeader | None:
        """A demographics event's header, or None when it is not one (bad events are only counted)."""
        if len(raw) > self.max_message_bytes:
            return None
        try:
            parsed = self.pipeline.load(raw)
        except Exception as exc:  # noqa: BLE001 - a poison demographics event must not stop its agent
            if not isinstance(exc, EventParseError):
                log.error("demographics event failed to parse: %s", type(exc).__name__)
            return None
        return parsed.patient

    def _parse(self, event: InputEvent) -> _Work | OutputRecord | None:
        if len(event.value) > self.max_message_bytes:
            return self.dead_letter(
                event, CODE_TOO_LARGE, f"message of {len(event.value)} bytes exceeds the limit of {self.max_message_bytes}"
            )
        if sniff_format(event.value) is None:
            return self.dead_letter(event, CODE_FORMAT_UNKNOWN, "not HL7 v2 (MSH), FHIR JSON or a JSON envelope")
        try:
            message = self.pipeline.load(event.value)
        except EventParseError as exc:
            return self.dead_letter(event, exc.code, exc.message)
        longest = max((len(n.text) for n in message.notes), default=0)
        if longest > self.max_message_bytes:
            # Escapes such as HL7's \.sp100\ can make a note far longer than its message.
            return self.dead_letter(
                event, CODE_TOO_LARGE, f"a note of {longest} characters exceeds the limit of {self.max_message_bytes}"
            )
        if message.demographics_only:
            if message.patient is None:
                return None
            self.table.put(message.patient)
            # The demographics topic (keyed by patient id) is where the durable table is built from.
            return OutputRecord(self.topics.demographics, message.patient.patient_id.encode(), event.value)
        ref = message.patient_ref or (message.patient.patient_id if message.patient else None)
        header = merge_headers(message.patient, self.table.get(ref) if ref else None)
        return _Work(event, message, header)

    async def process_batch(self, events: Sequence[InputEvent]) -> tuple[list[OutputRecord], BatchStats]:
        """Exactly one outcome per event (dead letter, demographics, or the outputs of its notes).

        Raises only ``DependencyUnavailable`` (then nothing of the batch may be published).
        """
        started = time.perf_counter()
        stats = BatchStats()
        records: list[OutputRecord] = []
        work: list[_Work] = []
        for event in events:
            try:
                item = self._parse(event)
            except Exception as exc:  # noqa: BLE001 - per-message isolation: see the module docstring
                item = self._internal_error(event, exc)
            if isinstance(item, OutputRecord):
                records.append(item)
                if item.topic == self.topics.dead_letter:
                    stats.dead_letters += 1
                else:
                    stats.demographics += 1
            elif item is None:
                stats.demographics += 1
            else:
                work.append(item)
        for w, outcome in zip(work, await self._deidentify(work), strict=True):
            if isinstance(outcome, OutputRecord):
                records.append(outcome)
                stats.dead_letters += 1
                continue
            built = self._outputs(w, outcome, started)
            if isinstance(built, OutputRecord):
                records.append(built)
                stats.dead_letters += 1
                continue
            records.extend(built)
            key = built[0].key.decode()
            stats.messages += 1
            stats.notes += len(outcome.notes)
            stats.lake_rows.extend(
                LakeRow(key, i, w.message.format.value, outcome.patient_pseudonym, d.text, self.model_version)
                for i, d in enumerate(outcome.notes)
            )
            for span in (x for note in outcome.notes for x in note.spans):
                stats.phi_by_type[span.type.value] += 1
        return records, stats

    async def _deidentify(self, work: Sequence[_Work]) -> list[MessageResult | OutputRecord]:
        """De-identify every message of ``work``: one tagger call, or one per message after a failure."""
        try:
            return await self._deidentify_group(work)
        except DependencyUnavailable:
            raise
        except Exception as exc:  # noqa: BLE001 - find the poison message instead of failing the batch
            if len(work) <= 1:
                return [self._internal_error(w.event, exc) for w in work]
            log.warning("batch of %d messages failed (%s); redoing it one message at a time", len(work), type(exc).__name__)
        out: list[MessageResult | OutputRecord] = []
        for w in work:
            try:
                # A failed attempt may have decided some leaves: load the message afresh.
                fresh = _Work(w.event, self.pipeline.load(w.event.value), w.header)
                out.extend(await self._deidentify_group([fresh]))
            except DependencyUnavailable:
                raise
            except Exception as exc:  # noqa: BLE001
                out.append(self._internal_error(w.event, exc))
        return out

    async def _deidentify_group(self, work: Sequence[_Work]) -> list[MessageResult | OutputRecord]:
        with dependency_errors():
            results = await self.pipeline.deidentify([(w.message, w.header) for w in work])
        return [
            self.dead_letter(w.event, r.code, r.message) if isinstance(r, EventParseError) else r
            for w, r in zip(work, results, strict=True)
        ]

    def _outputs(self, w: _Work, result: MessageResult, started: float) -> list[OutputRecord] | OutputRecord:
        """The message's output records, or its dead letter."""
        key = result.ref.encode()
        fmt = w.message.format.value
        records = [OutputRecord(self.topics.notes_out, key, result.output, (("deid-format", fmt.encode()),))]
        if self.topics.json_out:
            doc = {
                "id": result.ref, "format": fmt, "patient": result.patient_pseudonym,
                "notes": [{"index": i, "text": d.text} for i, d in enumerate(result.notes)],
            }  # fmt: skip
            records.append(OutputRecord(self.topics.json_out, key, json.dumps(doc, ensure_ascii=False).encode()))
        records.append(OutputRecord(self.topics.audit, key, self._audit(result, started)))
        largest = max(len(r.value) for r in records)
        if largest > self.max_message_bytes:
            # Publishing it would fail on the producer's size limit and block the partition.
            return self.dead_letter(
                w.event, CODE_TOO_LARGE, f"an output record of {largest} bytes exceeds the limit of {self.max_message_bytes}"
            )
        return records

    def _audit(self, result: MessageResult, started: float) -> bytes:
        flat = [s for note in result.notes for s in note.spans]
        by_source: Counter[str] = Counter(src for s in flat for src in s.sources)
        policy = self.pipeline.policy
        record = {
            "output_key": result.ref,
            "patient_pseudonym": result.patient_pseudonym,
            "notes": len(result.notes),
            "replaced_by_type": dict(Counter(s.type.value for s in flat)),
            "replaced_by_source": dict(by_source),
            "fields_by_action": dict(result.actions),
            "policy": policy.name,
            "policy_version": policy.version,
            "tagger_model_version": self.model_version,
            "hmac_key_version": self.pipeline.surrogator.key.version,
            "processing_ms": round((time.perf_counter() - started) * 1000, 1),
        }
        return json.dumps(record, sort_keys=True).encode()
