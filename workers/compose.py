"""The composition root: build every part of a worker from its settings."""

from __future__ import annotations

import logging
from typing import Any

from deid_core.detect.registry import LOCAL_DETECTORS, build_detectors
from deid_core.heap import building_frozen
from deid_core.message.path import MessagePipeline
from deid_core.message.policy import PolicyError, load_policy
from deid_core.pipeline import DetectionPipeline
from deid_core.surrogate.engine import Surrogator
from deid_core.surrogate.keys import HmacKey, KeyRing
from deid_core.surrogate.store import InMemoryMappingStore, MappingStore, RedisMappingStore
from deid_core.tagger import build_tagger
from deid_core.tagger.base import Tagger
from schemas.message import MessageLoader
from workers.health import STORE, TAGGER, CallableProbe, DependencyProbe
from workers.processor import DemographicsTable, NoteProcessor
from workers.security import ConfigurationError, RedisOptions, load_keyring, redis_options
from workers.settings import TopicNames, WorkerSettings

__all__ = [
    "ConfigurationError", "build_app", "build_loaders", "build_pipeline", "build_processor", "build_settings_pipeline",
    "build_store",
]

log = logging.getLogger(__name__)


def build_loaders() -> list[MessageLoader]:
    from deid_core.message.envelope import EnvelopeLoader
    from deid_core.message.fhir.codec import FhirLoader
    from deid_core.message.hl7.codec import Hl7Loader

    return [Hl7Loader(), FhirLoader(), EnvelopeLoader()]


def build_pipeline(
    detection: DetectionPipeline, surrogator: Surrogator, policy: str | None = None, pseudonym_key: HmacKey | None = None
) -> MessagePipeline:
    """The one message path, for the worker, the CLI and the library alike."""
    try:
        loaded = load_policy(policy)
    except PolicyError as exc:
        raise ConfigurationError(f"DEID_POLICY: {exc}") from None
    return MessagePipeline(detection, surrogator, loaded, build_loaders(), pseudonym_key)


def build_store(spec: str | WorkerSettings, redis: RedisOptions | None = None) -> MappingStore:
    """The mapping store of a spec ('memory' or a Redis URL) or of the settings (with their AUTH/TLS).

    No I/O except reading the Redis password file when given settings; connections open on first use.
    """
    if isinstance(spec, WorkerSettings):
        redis = redis_options(spec) if redis is None else redis
        spec = spec.store
    if spec == "memory":
        return InMemoryMappingStore()
    if spec.startswith(("redis://", "rediss://", "unix://")):
        try:
            return RedisMappingStore.from_url(spec, **(redis or RedisOptions()).as_kwargs())
        except ValueError as exc:
            raise ConfigurationError(f"DEID_STORE: {exc}") from None
    raise ConfigurationError(f"store must be 'memory' or a redis URL, got a value of {len(spec)} characters")


def build_settings_pipeline(
    settings: WorkerSettings, keyring: KeyRing, redis: RedisOptions | None, tagger: Tagger
) -> MessagePipeline:
    """The message path as the worker and ``deid serve`` run it: the local detectors beside ``tagger``,
    the settings' store and policy, ``keyring``'s current key. Built once per process, so it ends by
    freezing what it loaded (the lexicons and model tables: ``deid_core.heap``)."""
    with building_frozen():
        detection = DetectionPipeline(build_detectors(LOCAL_DETECTORS), tagger)
        surrogator = Surrogator(build_store(settings, redis), keyring)
        return build_pipeline(detection, surrogator, settings.policy, keyring.chain[0])


def build_processor(
    settings: WorkerSettings,
    table: DemographicsTable,
    topics: TopicNames,
    keyring: KeyRing | None = None,
    redis: RedisOptions | None = None,
) -> NoteProcessor:
    ring = load_keyring(settings) if keyring is None else keyring
    tagger = build_tagger(settings.triton_url)
    pipeline = build_settings_pipeline(settings, ring, redis, tagger)
    return NoteProcessor(
        pipeline, table, topics, model_version=tagger.model_version,
        max_message_bytes=settings.max_message_bytes, dead_letter_max_bytes=settings.dead_letter_max_bytes,
    )


def build_probes(settings: WorkerSettings, redis: RedisOptions | None = None) -> list[DependencyProbe]:
    """Background health probes for the tagger and the store, on connections of their own (the broker
    probe is the app's). An in-process tagger and the memory store cannot be down, so they get none."""
    probes: list[DependencyProbe] = []
    if settings.triton_url:
        url = settings.triton_url
        clients: list[Any] = []

        async def triton_ready() -> bool:
            # The gRPC client is made on first use, inside the worker's event loop.
            if not clients:
                from deid_core.tagger.triton import TritonTagger

                clients.append(TritonTagger(url))
            return bool(await clients[0].ready())

        probes.append(CallableProbe(TAGGER, triton_ready))
    store = build_store(settings, redis)
    if isinstance(store, RedisMappingStore):
        probes.append(CallableProbe(STORE, store.ping))
    return probes


def build_app(settings: WorkerSettings, *, keyring: KeyRing | None = None) -> Any:
    """The faust app. Keys and secret files are loaded here, at startup, so that a bad or (in production)
    unsafe configuration stops the worker before it connects to anything; the processor itself is still
    built on the first event."""
    from workers.app import create_app

    keyring = load_keyring(settings) if keyring is None else keyring
    try:
        load_policy(settings.policy)  # a bad policy stops the worker before it connects to anything
    except PolicyError as exc:
        raise ConfigurationError(f"DEID_POLICY: {exc}") from None
    redis = redis_options(settings)
    topics = settings.topic_names()
    return create_app(
        settings, lambda table: build_processor(settings, table, topics, keyring, redis), build_probes(settings, redis)
    )
