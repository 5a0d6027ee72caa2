"""Worker settings from the environment (prefix ``DEID_``) or a ``.env``-style file.

Secrets never appear here as values: passwords and the HMAC secret are read from the files the
settings name (``*_FILE``), so ``repr(settings)`` and validation errors show paths, never secrets.

Topic names are set here and nowhere else (``topic_*``, env ``DEID_TOPIC_*``); the rest of the code gets
them as a ``TopicNames`` from ``WorkerSettings.topic_names()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, FilePath, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

KafkaSecurityProtocol = Literal["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"]
KafkaSaslMechanism = Literal["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]


class WorkerSettings(BaseSettings):
    # hide_input_in_errors: a rejected value (say a URL with an inline password) must not be echoed.
    model_config = SettingsConfigDict(env_prefix="DEID_", env_file=None, extra="ignore", hide_input_in_errors=True)

    app_id: str = "deid-stream"
    kafka_bootstrap: str = "127.0.0.1:9092"
    topic_notes_in: str = "deid.notes.in"
    topic_demographics: str = "deid.demographics"
    topic_notes_out: str = "deid.notes.out"
    topic_json_out: str | None = "deid.notes.json"
    topic_dead_letter: str = "deid.deadletter"
    topic_audit: str = "deid.audit"
    topic_partitions: int = Field(default=4, ge=1)
    create_topics: bool = Field(
        default=True, description="create the input topics with topic_partitions if missing (off where deploy/ creates them)"
    )
    batch_max: int = Field(default=32, ge=1, description="notes per pipeline run (one tagger call)")
    # Measured by bench/stream_sweep.py (docs/deployment.md, "Stream latency"): faust's take waits the whole
    # batch wait whenever a batch is not full, so below saturation every batch pays it; a full batch is
    # taken at once, so a short wait costs no throughput.
    batch_wait_ms: int = Field(default=10, ge=1, description="longest wait to fill a batch")
    # Some Kafka-protocol brokers (tansu) hold an empty fetch for the whole wait even when data arrive
    # meanwhile; Apache Kafka answers at once. 100 ms costs an idle worker ten small requests a second.
    consumer_fetch_wait_ms: int | None = Field(
        default=100, ge=1, le=60_000,
        description="longest time the broker may hold an empty fetch (None: faust's 1500 ms; see workers/transport.py)",
    )  # fmt: skip
    retry_backoff_ms: int = Field(default=500, ge=1, description="first pause when a dependency is down")
    retry_backoff_max_ms: int = Field(default=10_000, ge=1)
    health_interval_ms: int = Field(default=2_000, ge=100, description="how often the broker, tagger and store are probed")
    health_timeout_ms: int = Field(default=2_000, ge=100, description="a probe slower than this counts as down")
    internal_error_attempts: int = Field(
        default=3, ge=1, description="tries of a batch failing inside the pipeline before its events are dead-lettered"
    )
    max_message_bytes: int = Field(default=1_000_000, ge=1, description="larger inputs and notes are dead-lettered")
    dead_letter_max_bytes: int = Field(default=512 * 1024, ge=0, description="dead-letter payloads are cut to this size")
    policy: str = Field(
        default="surrogate", description="de-identification policy: surrogate, safe-harbor, limited-data-set or a YAML path"
    )
    triton_url: str | None = Field(default=None, description="Triton gRPC host:port; unset = in-process tagger")
    store: str = Field(default="memory", description="'memory' or a redis:// / rediss:// (TLS) URL without password")
    secret_file: str | None = Field(default=None, description="HMAC secret file, first line [<version>:]<secret>")
    previous_secret_files: Annotated[tuple[str, ...], NoDecode] = Field(
        default=(), description="comma-separated older HMAC secret files, oldest first, kept during a key rotation"
    )
    production: bool = False
    data_dir: str | None = Field(default=None, description="faust's local state directory (default: ./<app_id>-data)")
    lake_path: str | None = Field(default=None, description="directory of the Parquet data-lake sink; unset = off")
    # tansu (tests, embedded default) holds JoinGroup for half the session timeout: keep it short there.
    broker_session_timeout_s: float = 6.0
    broker_heartbeat_interval_s: float = 1.0
    web_port: int = Field(default=6066, ge=0)

    # Kafka transport security (docs/security.md).
    kafka_security_protocol: KafkaSecurityProtocol = "PLAINTEXT"
    kafka_sasl_mechanism: KafkaSaslMechanism | None = None
    kafka_sasl_username: str | None = None
    kafka_sasl_password_file: FilePath | None = None
    kafka_ssl_cafile: FilePath | None = Field(default=None, description="CA bundle for the broker (default: system CAs)")
    kafka_ssl_certfile: FilePath | None = Field(default=None, description="client certificate (mutual TLS)")
    kafka_ssl_keyfile: FilePath | None = None

    # Redis AUTH and TLS (a rediss:// store URL turns TLS on).
    redis_username: str | None = Field(default=None, description="Redis ACL user (default: the 'default' user)")
    redis_password_file: FilePath | None = None
    redis_ssl_cafile: FilePath | None = None
    redis_ssl_certfile: FilePath | None = None
    redis_ssl_keyfile: FilePath | None = None

    def topic_names(self) -> TopicNames:
        return TopicNames(
            notes_in=self.topic_notes_in, demographics=self.topic_demographics, notes_out=self.topic_notes_out,
            json_out=self.topic_json_out, dead_letter=self.topic_dead_letter, audit=self.topic_audit,
        )  # fmt: skip

    @field_validator("previous_secret_files", mode="before")
    @classmethod
    def _split_paths(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(p.strip() for p in value.split(",") if p.strip())
        return value

    @field_validator(
        "kafka_sasl_mechanism", "kafka_sasl_username", "kafka_sasl_password_file", "kafka_ssl_cafile",
        "kafka_ssl_certfile", "kafka_ssl_keyfile", "redis_username", "redis_password_file", "redis_ssl_cafile",
        "redis_ssl_certfile", "redis_ssl_keyfile", "secret_file", mode="before",
    )  # fmt: skip
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        # Templated deployments (compose ``${VAR:-}``) set a variable to "" to mean "not set".
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("store")
    @classmethod
    def _store_without_password(cls, value: str) -> str:
        if value != "memory" and urlsplit(value).password is not None:
            raise ValueError("must not hold a password: put it in DEID_REDIS_PASSWORD_FILE")
        return value

    @model_validator(mode="after")
    def _consistent_security(self) -> WorkerSettings:
        sasl = self.kafka_security_protocol.startswith("SASL_")
        tls = self.kafka_security_protocol in ("SSL", "SASL_SSL")
        protocol = f"DEID_KAFKA_SECURITY_PROTOCOL={self.kafka_security_protocol}"
        if sasl:
            missing = [
                name for name, value in (
                    ("DEID_KAFKA_SASL_MECHANISM", self.kafka_sasl_mechanism),
                    ("DEID_KAFKA_SASL_USERNAME", self.kafka_sasl_username),
                    ("DEID_KAFKA_SASL_PASSWORD_FILE", self.kafka_sasl_password_file),
                ) if not value
            ]  # fmt: skip
            if missing:
                raise ValueError(f"{protocol} needs {', '.join(missing)}")
        elif self.kafka_sasl_mechanism or self.kafka_sasl_username or self.kafka_sasl_password_file:
            raise ValueError(f"DEID_KAFKA_SASL_* is set but {protocol} does not use SASL (use SASL_SSL)")
        if not tls and (self.kafka_ssl_cafile or self.kafka_ssl_certfile or self.kafka_ssl_keyfile):
            raise ValueError(f"DEID_KAFKA_SSL_* is set but {protocol} does not use TLS (use SSL or SASL_SSL)")
        if self.kafka_ssl_keyfile and not self.kafka_ssl_certfile:
            raise ValueError("DEID_KAFKA_SSL_KEYFILE needs DEID_KAFKA_SSL_CERTFILE")
        redis_tls_files = self.redis_ssl_cafile or self.redis_ssl_certfile or self.redis_ssl_keyfile
        if redis_tls_files and not self.store.startswith("rediss://"):
            raise ValueError("DEID_REDIS_SSL_* is set but DEID_STORE is not a rediss:// URL")
        if self.redis_ssl_keyfile and not self.redis_ssl_certfile:
            raise ValueError("DEID_REDIS_SSL_KEYFILE needs DEID_REDIS_SSL_CERTFILE")
        if self.redis_username and not self.redis_password_file:
            raise ValueError("DEID_REDIS_USERNAME needs DEID_REDIS_PASSWORD_FILE")
        if self.store == "memory" and (self.redis_username or self.redis_password_file):
            raise ValueError("DEID_REDIS_* credentials are set but DEID_STORE=memory")
        return self


def _default_topic(role: str) -> Any:
    # The field's declared default, not the environment: reading the class's metadata has no side effects.
    return WorkerSettings.model_fields[f"topic_{role}"].default


@dataclass(frozen=True, slots=True)
class TopicNames:
    """The topics a worker reads and writes, as the processor and the app receive them.

    Build it with ``WorkerSettings.topic_names()``; ``TopicNames()`` holds the settings' defaults (tests,
    benches), which are only declared on ``WorkerSettings``.
    """

    notes_in: str = _default_topic("notes_in")
    demographics: str = _default_topic("demographics")
    notes_out: str = _default_topic("notes_out")
    json_out: str | None = _default_topic("json_out")
    dead_letter: str = _default_topic("dead_letter")
    audit: str = _default_topic("audit")
