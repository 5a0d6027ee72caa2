"""The per-batch work of a streaming worker, independent of Kafka: parse -> enrich -> detect -> merge ->
surrogate -> render -> output records. The faust agent (workers/app.py) only moves bytes in and out.

Failure policy (fail closed):
- a message that cannot be parsed or rendered becomes a dead-letter record (input bytes kept, an error
  code and a PHI-free message in headers); the batch goes on;
- an unavailable dependency (tagger, mapping store) raises ``DependencyUnavailable`` for the whole batch:
  nothing of it is returned, the caller retries the batch later, and since output keys are stable a
  retried or redelivered message yields the same records.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from deid_core.enrich import merge_headers
from deid_core.pipeline import DetectionPipeline
from deid_core.surrogate.engine import Surrogator
from deid_core.surrogate.keys import HmacKey, mapping_key
from deid_core.tagger.base import TaggerUnavailable
from schemas import EnrichedNote, PatientHeader, Span
from schemas.events import EventFormat, EventParseError, MessageCodec, ParsedMessage
from workers.lake import LakeRow

log = logging.getLogger(__name__)


class DependencyUnavailable(RuntimeError):
    """A service needed for correct output is down; retry the batch, publish nothing."""


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
        raise DependencyUnavailable(f"tagger: {exc}") from None
    except (ConnectionError, OSError, TimeoutError) as exc:
        raise DependencyUnavailable(f"mapping store: {type(exc).__name__}") from None
    except Exception as exc:
        if type(exc).__module__.startswith("redis"):
            raise DependencyUnavailable(f"mapping store: {type(exc).__name__}") from None
        raise


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


@dataclass(frozen=True, slots=True)
class TopicNames:
    notes_in: str = "deid.notes.in"
    demographics: str = "deid.demographics"
    notes_out: str = "deid.notes.out"
    json_out: str | None = "deid.notes.json"
    dead_letter: str = "deid.deadletter"
    audit: str = "deid.audit"


@dataclass
class BatchStats:
    notes: int = 0
    messages: int = 0
    demographics: int = 0
    dead_letters: int = 0
    phi_by_type: Counter[str] = field(default_factory=Counter)
    lake_rows: list[LakeRow] = field(default_factory=list)


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
class _Work:
    event: InputEvent
    codec: MessageCodec
    parsed: ParsedMessage
    header: PatientHeader | None


class NoteProcessor:
    def __init__(
        self,
        detection: DetectionPipeline,
        surrogator: Surrogator,
        key: HmacKey,
        codecs: Sequence[MessageCodec],
        table: DemographicsTable,
        topics: TopicNames = TopicNames(),
        model_version: str = "none",
    ) -> None:
        self.detection = detection
        self.surrogator = surrogator
        self.key = key
        self.codecs = {c.format: c for c in codecs}
        self.table = table
        self.topics = topics
        self.model_version = model_version

    def output_key(self, fmt: EventFormat, message_id: str) -> bytes:
        # Keyed hash: stable across workers and redeliveries, reveals nothing about the message id.
        return mapping_key(self.key, "output", fmt.value, message_id).hex()[:32].encode()

    def dead_letter(self, event: InputEvent, code: str, message: str) -> OutputRecord:
        headers = (
            ("deid-error-code", code.encode()),
            ("deid-error-message", message.encode()),
            ("deid-source", f"{event.topic}/{event.partition}/{event.offset}".encode()),
        )
        return OutputRecord(self.topics.dead_letter, f"{event.topic}/{event.partition}/{event.offset}".encode(), event.value, headers)

    def parse_demographics(self, raw: bytes) -> PatientHeader | None:
        """A demographics event's header, or None when it is not one (bad events are only counted)."""
        fmt = sniff_format(raw)
        codec = self.codecs.get(fmt) if fmt else None
        if codec is None:
            return None
        try:
            parsed = codec.parse(raw)
        except EventParseError:
            return None
        return parsed.patient

    def _parse(self, event: InputEvent) -> _Work | OutputRecord | None:
        fmt = sniff_format(event.value)
        codec = self.codecs.get(fmt) if fmt else None
        if codec is None:
            return self.dead_letter(event, "format.unknown", "not HL7 v2 (MSH), FHIR JSON or a JSON envelope")
        try:
            parsed = codec.parse(event.value)
        except EventParseError as exc:
            return self.dead_letter(event, exc.code, exc.message)
        if parsed.demographics_only:
            if parsed.patient is None:
                return None
            self.table.put(parsed.patient)
            # The demographics topic (keyed by patient id) is where the durable table is built from.
            return OutputRecord(self.topics.demographics, parsed.patient.patient_id.encode(), event.value)
        ref = parsed.patient_ref or (parsed.patient.patient_id if parsed.patient else None)
        header = merge_headers(parsed.patient, self.table.get(ref) if ref else None)
        return _Work(event, codec, parsed, header)

    async def process_batch(self, events: Sequence[InputEvent]) -> tuple[list[OutputRecord], BatchStats]:
        started = time.perf_counter()
        stats = BatchStats()
        records: list[OutputRecord] = []
        work: list[_Work] = []
        for event in events:
            item = self._parse(event)
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
        notes = [
            EnrichedNote(n.note_id, n.text, w.header) for w in work for n in w.parsed.notes
        ]
        with dependency_errors():
            spans = await self.detection.detect_batch(notes)
            deidentified = [await self.surrogator.deidentify(n, s) for n, s in zip(notes, spans, strict=True)]
        position = 0
        for w in work:
            count = len(w.parsed.notes)
            mine = deidentified[position : position + count]
            my_spans = spans[position : position + count]
            position += count
            try:
                with dependency_errors():
                    out = await self._render(w, [d.text for d in mine])
            except EventParseError as exc:
                records.append(self.dead_letter(w.event, exc.code, exc.message))
                stats.dead_letters += 1
                continue
            except KeyError:
                records.append(self.dead_letter(w.event, "render.missing_surrogate", "a header value had no surrogate"))
                stats.dead_letters += 1
                continue
            key = self.output_key(w.parsed.format, w.parsed.message_id)
            pseudonym = mine[0].patient_pseudonym if mine else None
            records.append(OutputRecord(self.topics.notes_out, key, out, (("deid-format", w.parsed.format.value.encode()),)))
            if self.topics.json_out:
                doc = {
                    "id": key.decode(), "format": w.parsed.format.value, "patient": pseudonym,
                    "notes": [{"index": i, "text": d.text} for i, d in enumerate(mine)],
                }
                records.append(OutputRecord(self.topics.json_out, key, json.dumps(doc, ensure_ascii=False).encode()))
            records.append(OutputRecord(self.topics.audit, key, self._audit(key, pseudonym, my_spans, started)))
            stats.messages += 1
            stats.notes += count
            stats.lake_rows.extend(
                LakeRow(key.decode(), i, w.parsed.format.value, pseudonym, d.text, self.model_version)
                for i, d in enumerate(mine)
            )
            for s in (x for group in my_spans for x in group):
                stats.phi_by_type[s.type.value] += 1
        return records, stats

    async def _render(self, w: _Work, texts: list[str]) -> bytes:
        scope_header = w.header
        scope = f"patient:{scope_header.patient_id}" if scope_header else f"note:{w.parsed.message_id}"
        surrogates = {}
        for type_, value in w.codec.header_values(w.event.value):
            if (type_, value) in surrogates:
                continue
            if scope_header is not None and value == scope_header.patient_id:
                surrogates[(type_, value)] = await self.surrogator.pseudonym(value)
            else:
                surrogates[(type_, value)] = await self.surrogator.surrogate_for(scope, type_, value)
        return w.codec.render(w.event.value, texts, surrogates)

    def _audit(self, key: bytes, pseudonym: str | None, spans: Sequence[Sequence[Span]], started: float) -> bytes:
        flat = [s for group in spans for s in group]
        by_source: Counter[str] = Counter(src for s in flat for src in s.sources)
        record = {
            "output_key": key.decode(),
            "patient_pseudonym": pseudonym,
            "notes": len(spans),
            "replaced_by_type": dict(Counter(s.type.value for s in flat)),
            "replaced_by_source": dict(by_source),
            "tagger_model_version": self.model_version,
            "hmac_key_version": self.key.version,
            "processing_ms": round((time.perf_counter() - started) * 1000, 1),
        }
        return json.dumps(record, sort_keys=True).encode()
