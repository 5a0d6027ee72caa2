"""The composition root: build every part of a worker from its settings."""

from __future__ import annotations

import logging
from typing import Any

from deid_core.detect.registry import build_detectors
from deid_core.pipeline import DetectionPipeline
from deid_core.surrogate.engine import Surrogator
from deid_core.surrogate.keys import load_secret
from deid_core.surrogate.store import InMemoryMappingStore, MappingStore, RedisMappingStore
from deid_core.tagger import build_tagger
from schemas.events import MessageCodec
from workers.processor import DemographicsTable, NoteProcessor, TopicNames
from workers.settings import WorkerSettings

log = logging.getLogger(__name__)


class ConfigurationError(ValueError):
    pass


def build_codecs() -> list[MessageCodec]:
    from schemas.envelope import EnvelopeCodec
    from schemas.fhir import FhirCodec
    from schemas.hl7v2 import Hl7v2Codec

    return [Hl7v2Codec(), FhirCodec(), EnvelopeCodec()]


def build_store(spec: str) -> MappingStore:
    if spec == "memory":
        return InMemoryMappingStore()
    if spec.startswith(("redis://", "rediss://", "unix://")):
        return RedisMappingStore.from_url(spec)
    raise ConfigurationError(f"store must be 'memory' or a redis URL, got a value of {len(spec)} characters")


def build_processor(settings: WorkerSettings, table: DemographicsTable, topics: TopicNames) -> NoteProcessor:
    key = load_secret(settings.secret_file)
    if settings.production and key.is_development:
        raise ConfigurationError("production mode needs DEID_SECRET_FILE with a real HMAC secret")
    tagger = build_tagger(settings.triton_url)
    detection = DetectionPipeline(build_detectors(["rules", "header"]), tagger)
    surrogator = Surrogator(build_store(settings.store), key)
    return NoteProcessor(detection, surrogator, key, build_codecs(), table, topics, model_version=tagger.model_version)


def build_app(settings: WorkerSettings) -> Any:
    from workers.app import create_app, topic_names

    topics = topic_names(settings)
    return create_app(settings, lambda table: build_processor(settings, table, topics))
