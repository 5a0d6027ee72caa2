"""The public Python API: ``Deidentifier``, a thin, typed front door to the one message path.

Everything goes through :class:`~deid_core.message.path.MessagePipeline`: a text is de-identified as
a JSON envelope message (as ``deid deidentify`` does with note records), a whole HL7 v2 / FHIR / JSON
message as itself, so the library, the CLI, the HTTP service and the workers cannot drift apart.

Sync methods run on a private event loop and refuse to run inside a running one (they would block
it); the ``a``-prefixed twins run on the caller's loop. The store and a Triton tagger hold connections
bound to the loop that opened them, so such an instance serves one loop: the private one (sync use)
or the caller's (async use); mixing the two raises a clear error instead of a deep one from redis-py.

Nothing here logs or raises with input values: bad input raises ``EventParseError`` (a code and a
PHI-free message), as the loaders do.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Coroutine, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from schemas import PatientHeader, Span
from schemas.events import EventFormat, EventParseError

if TYPE_CHECKING:
    from deid_core.message.path import MessagePipeline
    from deid_core.surrogate.keys import HmacKey, KeyRing
    from deid_core.surrogate.store import MappingStore
    from deid_core.tagger.base import Tagger
    from schemas.policy import Policy

__all__ = ["DeidentifiedText", "DetectedSpan", "Deidentifier", "EventLoopError", "MessageFormat"]

MessageFormat = Literal["auto", "hl7", "fhir", "json"]
_FORMATS: dict[str, EventFormat | None] = {
    "auto": None, "hl7": EventFormat.HL7V2, "hl7v2": EventFormat.HL7V2, "fhir": EventFormat.FHIR, "json": EventFormat.JSON,
}  # fmt: skip
_T = TypeVar("_T")


class EventLoopError(RuntimeError):
    """A sync method was called inside a running event loop, or an instance was used from two loops."""


@dataclass(frozen=True, slots=True)
class DetectedSpan:
    """``text[start:end]`` (offsets into the original text, end exclusive) is PHI of ``type`` that the
    policy changes; ``sources`` are the detectors that found it, ``score`` their merged confidence."""

    start: int
    end: int
    type: str
    sources: tuple[str, ...]
    score: float

    @classmethod
    def from_span(cls, span: Span) -> DetectedSpan:
        return cls(span.start, span.end, span.type.value, tuple(sorted(span.sources)), span.score)

    def to_json(self) -> dict[str, object]:
        return {"start": self.start, "end": self.end, "type": self.type, "sources": list(self.sources), "score": self.score}


@dataclass(frozen=True, slots=True)
class DeidentifiedText:
    """The de-identified text and the spans of the original text that were replaced."""

    text: str
    spans: tuple[DetectedSpan, ...]
    patient_pseudonym: str | None = None
    """The patient's pseudonym (the same for the same ``patient_id`` and key), or None without a patient."""

    def to_json(self) -> dict[str, object]:
        return {"text": self.text, "spans": [s.to_json() for s in self.spans], "patient_pseudonym": self.patient_pseudonym}


def _format(fmt: MessageFormat | EventFormat | str) -> EventFormat | None:
    if isinstance(fmt, EventFormat):
        return fmt
    if fmt not in _FORMATS:
        raise ValueError(f"unknown message format; use one of {', '.join(k for k in _FORMATS if k != 'hl7v2')}")
    return _FORMATS[fmt]


def _patient_json(patient: PatientHeader | Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The patient as the envelope carries it; the envelope loader validates it (PHI-free errors)."""
    if patient is None:
        return None
    if isinstance(patient, PatientHeader):
        return patient.model_dump(mode="json", exclude_none=True)
    if isinstance(patient, Mapping):
        return dict(patient)
    raise TypeError("patient must be a PatientHeader, a mapping or None")


def _tagger_for(tagger: str | Tagger | None, detectors: Sequence[str], model_dir: str | Path | None) -> tuple[Tagger | None, bool]:
    """The tagger and whether this instance owns it (built it)."""
    from deid_core.detect.registry import TAGGER

    if tagger is None and TAGGER in detectors:
        tagger = "inprocess"
    if tagger is None:
        return None, False
    if not isinstance(tagger, str):
        return tagger, False
    from deid_core.tagger import build_tagger

    return build_tagger(None if tagger == "inprocess" else tagger, model_dir), True


class Deidentifier:
    """De-identifies texts and whole messages under one policy, with consistent surrogates per patient.

    ``policy``: a shipped name (``surrogate``, ``safe-harbor``, ``limited-data-set``), a YAML path or a
    ``Policy``. ``store``: where surrogate mappings live (default: in memory, this instance only).
    ``key``: the HMAC key or key ring naming the mappings (default: the development key, with a
    warning). ``tagger``: None (rules and the patient header only), ``"inprocess"`` (the shipped
    model), a Triton gRPC ``host:port``, or a ``Tagger``. ``detectors``: the local detectors
    (``rules``, ``header``; ``tagger`` there means ``tagger="inprocess"`` unless one is given).
    ``batch_max``: above 1, concurrent async calls are de-identified together, up to that many per
    pipeline batch (one tagger call); a server's setting, pointless for sequential calls.

    A store or tagger passed in stays the caller's to close; what this instance built, it closes.
    """

    def __init__(
        self,
        policy: str | Path | Policy = "surrogate",
        *,
        store: MappingStore | None = None,
        key: HmacKey | KeyRing | None = None,
        tagger: str | Tagger | None = None,
        detectors: Sequence[str] | str = ("rules", "header", "lexicon"),
        tagger_model_dir: str | Path | None = None,
        batch_max: int = 1,
    ) -> None:
        from deid_core.detect.registry import build_detectors, parse_detector_names
        from deid_core.message.path import MessagePipeline
        from deid_core.message.policy import load_policy
        from deid_core.pipeline import DetectionPipeline
        from deid_core.surrogate.engine import Surrogator
        from deid_core.surrogate.keys import KeyRing, load_secret
        from deid_core.surrogate.store import InMemoryMappingStore
        from schemas.policy import Policy

        loaded = policy if isinstance(policy, Policy) else load_policy(policy)
        names = parse_detector_names(detectors)
        built_tagger, owns_tagger = _tagger_for(tagger, names, tagger_model_dir)
        ring = key if isinstance(key, KeyRing) else KeyRing(key if key is not None else load_secret(None))
        owns_store = store is None
        mappings = InMemoryMappingStore() if store is None else store
        detection = DetectionPipeline(build_detectors(names), built_tagger)
        pipeline = MessagePipeline(detection, Surrogator(mappings, ring), loaded, _loaders(), ring.chain[0])
        self._setup(pipeline, close_tagger=owns_tagger, close_store=owns_store, batch_max=batch_max)

    @classmethod
    def from_pipeline(cls, pipeline: MessagePipeline, *, owns: bool = True, batch_max: int = 1) -> Deidentifier:
        """Wrap a pipeline built elsewhere (the service's composition root); ``owns``: close its tagger
        and store on :meth:`close`."""
        self = cls.__new__(cls)
        self._setup(pipeline, close_tagger=owns, close_store=owns, batch_max=batch_max)
        return self

    def _setup(self, pipeline: MessagePipeline, *, close_tagger: bool, close_store: bool, batch_max: int) -> None:
        from deid_core.message.batcher import MessageBatcher
        from deid_core.surrogate.store import InMemoryMappingStore
        from deid_core.tagger.inprocess import InProcessTagger

        self.pipeline = pipeline
        self._close_tagger = close_tagger
        self._close_store = close_store
        tagger = pipeline.detection.tagger
        store = pipeline.surrogator.store
        # Only network clients are bound to their loop; a dict and a local model are not.
        self._loop_bound = type(store) is not InMemoryMappingStore or not (
            tagger is None or isinstance(tagger, InProcessTagger)
        )
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: asyncio.Runner | None = None
        self._closed = False
        # Concurrent async calls share one pipeline batch (one tagger call) when batch_max > 1.
        self._batcher = MessageBatcher(pipeline, max_items=batch_max) if batch_max > 1 else None

    @property
    def policy(self) -> Policy:
        return self.pipeline.policy

    # -- async API ------------------------------------------------------------------------------------

    async def adeidentify(
        self, text: str, patient: PatientHeader | Mapping[str, Any] | None = None, *, note_id: str | None = None
    ) -> DeidentifiedText:
        """``text`` de-identified; ``note_id`` names the note (default: a fresh one, so a text without
        a patient shares no surrogates or date offset with any other)."""
        if not isinstance(text, str):
            raise TypeError("text must be a str")
        envelope: dict[str, Any] = {"id": note_id or uuid.uuid4().hex, "text": text}
        if patient is not None:
            envelope["patient"] = _patient_json(patient)
        result = await self._run_one(json.dumps(envelope, ensure_ascii=False).encode("utf-8"), EventFormat.JSON)
        note = result.notes[0]
        return DeidentifiedText(note.text, tuple(DetectedSpan.from_span(s) for s in note.spans), note.patient_pseudonym)

    async def adetect(
        self, text: str, patient: PatientHeader | Mapping[str, Any] | None = None, *, note_id: str | None = None
    ) -> list[DetectedSpan]:
        """The PHI spans of ``text`` that the policy changes (what ``deid detect --policy`` reports).

        The text takes the whole message path, so these are exactly the spans :meth:`adeidentify`
        replaces (and the store settles their surrogates, as it would then)."""
        return list((await self.adeidentify(text, patient, note_id=note_id)).spans)

    async def adeidentify_message(self, raw: bytes, format: MessageFormat | EventFormat = "auto") -> bytes:
        """A whole HL7 v2, FHIR R4 (resource or Bundle) or JSON envelope message, de-identified, same format."""
        if not isinstance(raw, bytes | bytearray | memoryview):
            raise TypeError("raw must be bytes")
        return (await self._run_one(bytes(raw), _format(format))).output

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._batcher is not None:
            await self._batcher.close()
        if self._close_tagger:
            await self.pipeline.detection.close()
        if self._close_store:
            await self.pipeline.surrogator.store.close()

    async def _run_one(self, raw: bytes, fmt: EventFormat | None) -> Any:
        self._bind(asyncio.get_running_loop())
        message = self.pipeline.load(raw, fmt)
        if self._batcher is not None:
            result = await self._batcher.submit(message, message.patient)
        else:
            (result,) = await self.pipeline.deidentify([(message, message.patient)])
        if isinstance(result, EventParseError):
            raise result
        return result

    def _bind(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._closed:
            raise RuntimeError("this Deidentifier is closed")
        if self._loop is None:
            self._loop = loop
        elif self._loop_bound and self._loop is not loop:
            raise EventLoopError(
                "this Deidentifier's store or tagger connections belong to another event loop: "
                "use either its sync methods or its async ones (a-prefixed), not both"
            )

    # -- sync API -------------------------------------------------------------------------------------

    def deidentify(
        self, text: str, patient: PatientHeader | Mapping[str, Any] | None = None, *, note_id: str | None = None
    ) -> DeidentifiedText:
        return self._sync(self.adeidentify(text, patient, note_id=note_id), "deidentify")

    def detect(
        self, text: str, patient: PatientHeader | Mapping[str, Any] | None = None, *, note_id: str | None = None
    ) -> list[DetectedSpan]:
        return self._sync(self.adetect(text, patient, note_id=note_id), "detect")

    def deidentify_message(self, raw: bytes, format: MessageFormat | EventFormat = "auto") -> bytes:
        return self._sync(self.adeidentify_message(raw, format), "deidentify_message")

    def close(self) -> None:
        if self._runner is None and self._closed:
            return
        try:
            self._sync(self.aclose(), "close")
        finally:
            if self._runner is not None:
                self._runner.close()
                self._runner = None

    def _sync(self, coro: Coroutine[Any, Any, _T], name: str) -> _T:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            coro.close()
            raise EventLoopError(
                f"Deidentifier.{name}() cannot run inside a running event loop; use 'await Deidentifier.a{name}(...)'"
            )
        if self._runner is None:
            self._runner = asyncio.Runner()
        return self._runner.run(coro)

    # -- context managers -----------------------------------------------------------------------------

    def __enter__(self) -> Deidentifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> Deidentifier:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


def _loaders() -> list[Any]:
    """The three formats' loaders (the same list as the workers' composition root)."""
    from deid_core.message.envelope import EnvelopeLoader
    from deid_core.message.fhir.codec import FhirLoader
    from deid_core.message.hl7.codec import Hl7Loader

    return [Hl7Loader(), FhirLoader(), EnvelopeLoader()]
